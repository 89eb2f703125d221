// What an upload's code may import when it is bundled: files of the upload, its installed
// dependencies, and the authoring package. Bundling runs in the web and worker processes, which
// can read more than any one team should (other teams' uploads, the data directory, the
// platform's files); without this fence a `../../…` or absolute import, or a package's `main`,
// would copy such a file into the bundle, where the sandbox could read it.
import fs from "node:fs";
import path from "node:path";
import type * as esbuild from "esbuild";

// Marks the resolution this plugin asks esbuild for, so it does not ask itself again.
const confined = Symbol("confined");

const isInside = (file: string, dirs: string[]) => dirs.some((dir) => file.startsWith(dir));
// esbuild names files by their real paths, so a folder reached through a link is named by its own.
const asDir = (dir: string) => {
  const resolved = path.resolve(dir);
  return (fs.existsSync(resolved) ? fs.realpathSync(resolved) : resolved) + path.sep;
};

/** `allowed`: where upload code may resolve to; `trusted`: the platform's own code, whose imports
 * are not fenced (the sandbox runner and the authoring package import the platform's modules). */
export function confineImports(options: { allowed: string[]; trusted: string[] }): esbuild.Plugin {
  const allowed = options.allowed.map(asDir);
  const trusted = options.trusted.map(asDir);
  return {
    name: "agentfold-confine-imports",
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === confined || isInside(args.importer, trusted)) return undefined;
        const result = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          namespace: args.namespace,
          with: args.with,
          pluginData: confined,
        });
        // Not found: esbuild's own "Could not resolve" follows, which the diagnostics explain.
        if (result.errors.length > 0) return undefined;
        if (result.external || isInside(result.path, allowed)) {
          const { path: resolved, external, namespace, sideEffects, suffix } = result;
          return { path: resolved, external, namespace, sideEffects, suffix };
        }
        // Said as esbuild says a missing file, so the diagnostic is the same as for one not uploaded.
        return { errors: [{ text: `Could not resolve "${args.path}"` }] };
      });
    },
  };
}
