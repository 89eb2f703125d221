// The npm packages an upload brings already bundled (docs/agent-folders.md, "What is uploaded"):
// `agentfold deploy` bundles what the agent's modules import from the author's node_modules
// (bundle-dependencies.ts) into `agentfold-dependencies/` at the upload's root, a small
// node_modules tree whose packages point at the bundled modules. The platform's bundler resolves
// the agent's imports there (a node path) and installs nothing; without it, the lockfile is
// installed (install-dependencies.ts). Like the sources, it is the author's code: esbuild reads it,
// and only the sandbox runs it.
import fs from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { z } from "zod";
import type { Diagnostic } from "@/agents/loader/diagnostics";

export const dependencyBundleFolder = "agentfold-dependencies";
export const dependencyManifestFile = `${dependencyBundleFolder}/manifest.json`;

/** What the bundled packages may take in an upload, which holds 50 MiB in all (upload-limits.ts). */
export const maxDependencyBundleBytes = 25 * 1024 * 1024;

/** Resolved by the platform (bundle-agent.ts), so never bundled from, nor installed into, node_modules. */
export const isPlatformPackage = (specifier: string) =>
  /^(agentfold|@cursor\/[^/]+|zod|@opentelemetry\/api)(\/.*)?$/.test(specifier);

/** The platform's packages and Node's own modules: what an agent imports without a package.json. */
export const isProvided = (specifier: string) =>
  isPlatformPackage(specifier) || specifier.startsWith("node:") || builtinModules.includes(specifier.split("/")[0]!);

/** A package name with an optional subpath (`pdf-lib`, `@scope/x/sub`): a folder of the tree. */
export const isPackageSpecifier = (specifier: string) =>
  /^(@[a-z0-9][\w.~-]*\/)?[a-z0-9][\w.~-]*(\/[\w.~@+-]+)*$/i.test(specifier) &&
  !specifier.split("/").some((segment) => segment === "." || segment === "..");

const diagnosticSchema = z
  .object({
    level: z.enum(["error", "warning"]),
    file: z.string().optional(),
    line: z.number().int().positive().optional(),
    message: z.string(),
  })
  .strict();

export const dependencyManifestSchema = z
  .object({
    version: z.literal(1),
    /** The specifiers bundled, each a folder of `node_modules/` beside the manifest. */
    packages: z.array(z.string().refine(isPackageSpecifier, "is not a package name")),
    bytes: z.number().int().nonnegative(),
    /** Problems bundling them on the author's machine: the version is invalid with them. */
    diagnostics: z.array(diagnosticSchema),
  })
  .strict();
export type DependencyManifest = z.infer<typeof dependencyManifestSchema>;

/** The upload's bundled packages, or undefined when it brings none (then its lockfile is installed). */
export function readDependencyBundle(projectDir: string): { nodePath: string; diagnostics: Diagnostic[] } | undefined {
  const manifestPath = path.join(projectDir, dependencyManifestFile);
  if (!fs.existsSync(manifestPath)) return undefined;
  const nodePath = path.join(projectDir, dependencyBundleFolder, "node_modules");
  const problem = (message: string) => ({ nodePath, diagnostics: [{ level: "error" as const, message }] });
  let manifest: DependencyManifest;
  try {
    manifest = dependencyManifestSchema.parse(JSON.parse(fs.readFileSync(manifestPath, "utf8")));
  } catch (error) {
    const reason = error instanceof z.ZodError ? z.prettifyError(error) : (error as Error).message;
    return problem(`${dependencyManifestFile} is not what agentfold deploy writes: ${reason.replace(/\s+/g, " ")}`);
  }
  // Counted on disk, not as the manifest says: the archive's own limits already held while extracting.
  const bytes = sizeOf(path.join(projectDir, dependencyBundleFolder));
  if (bytes > maxDependencyBundleBytes) return problem(tooLarge(bytes));
  return { nodePath, diagnostics: manifest.diagnostics };
}

export function tooLarge(bytes: number): string {
  const mib = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;
  return `the npm packages the agent imports bundle to ${mib(bytes)}, over the ${mib(maxDependencyBundleBytes)} an upload may carry`;
}

function sizeOf(dir: string): number {
  let bytes = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) bytes += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  return bytes;
}
