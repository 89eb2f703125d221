// An uploaded agent's npm dependencies (docs/agent-folders.md, "npm dependencies"): uploads leave
// out node_modules, so unless `deploy` bundled them on the author's machine (dependency-bundle.ts),
// a project whose package.json lists dependencies brings its lockfile and the platform installs
// exactly that — `npm ci --ignore-scripts` (no package's code runs), from the registry this
// instance reaches, into a cache keyed by what is installed, so the next version with the same
// lockfile installs nothing. The authoring packages (`@cursor/*`, `agentfold`) and
// what the platform provides itself (zod, @opentelemetry/api) are never installed.
import { execFile } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Diagnostic } from "@/agents/loader/diagnostics";
import { isPlatformPackage } from "./dependency-bundle";

/** Provided by the platform: installing them would shadow (or, for @cursor/*, not find) them. */
const provided = isPlatformPackage;

export type InstallOptions = {
  /** Installed trees, one per lockfile: `<cacheDir>/<hash>/node_modules`. */
  cacheDir: string;
  /** What one install may take on disk. */
  maxBytes?: number;
  timeoutMs?: number;
};

export type Installed = { nodeModules?: string; installed: string[]; diagnostics: Diagnostic[] };

type PackageJson = { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
type Lockfile = { lockfileVersion?: number; packages?: Record<string, { dependencies?: Record<string, string> }> };

export async function installDependencies(folderDir: string, options: InstallOptions): Promise<Installed> {
  const { cacheDir, maxBytes = 200 * 1024 * 1024, timeoutMs = 5 * 60_000 } = options;
  const packagePath = path.join(folderDir, "package.json");
  if (!fs.existsSync(packagePath)) return { installed: [], diagnostics: [] };
  let pkg: PackageJson;
  try {
    pkg = JSON.parse(fs.readFileSync(packagePath, "utf8")) as PackageJson;
  } catch (error) {
    return { installed: [], diagnostics: [problem("package.json", `is not JSON: ${(error as Error).message}`)] };
  }
  const wanted = Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies }).filter((name) => !provided(name));
  if (wanted.length === 0) return { installed: [], diagnostics: [] };
  const lockPath = path.join(folderDir, "package-lock.json");
  if (!fs.existsSync(lockPath)) {
    const other = ["pnpm-lock.yaml", "yarn.lock", "bun.lockb"].find((name) =>
      fs.existsSync(path.join(folderDir, name)),
    );
    return {
      installed: [],
      diagnostics: [
        problem(
          "package.json",
          `lists dependencies (${wanted.join(", ")}) but the upload has no package-lock.json${other ? ` (${other} is not read here)` : ""}: run \`npm install\` and upload package-lock.json with it`,
        ),
      ],
    };
  }
  let lock: Lockfile;
  try {
    lock = JSON.parse(fs.readFileSync(lockPath, "utf8")) as Lockfile;
  } catch (error) {
    return { installed: [], diagnostics: [problem("package-lock.json", `is not JSON: ${(error as Error).message}`)] };
  }
  if (!lock.packages)
    return {
      installed: [],
      diagnostics: [
        problem("package-lock.json", "is older than lockfile version 2: run `npm install` with npm 7 or later"),
      ],
    };
  const { pkg: kept, lock: keptLock } = withoutProvided(pkg, lock);
  const key = crypto
    .createHash("sha256")
    .update(JSON.stringify([kept, keptLock]))
    .digest("hex")
    .slice(0, 32);
  const target = path.join(cacheDir, key);
  const nodeModules = path.join(target, "node_modules");
  if (fs.existsSync(path.join(target, ".complete"))) return { nodeModules, installed: wanted, diagnostics: [] };
  const scratch = fs.mkdtempSync(path.join(cacheDir, `.install-${key}-`));
  try {
    fs.writeFileSync(path.join(scratch, "package.json"), JSON.stringify(kept));
    fs.writeFileSync(path.join(scratch, "package-lock.json"), JSON.stringify(keptLock));
    await npm(["ci", "--ignore-scripts", "--omit=dev", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: scratch,
      cacheDir: path.join(cacheDir, ".npm"),
      timeoutMs,
    });
    const bytes = sizeOf(path.join(scratch, "node_modules"));
    if (bytes > maxBytes)
      return {
        installed: [],
        diagnostics: [
          problem(
            "package.json",
            `its dependencies take ${Math.round(bytes / 1048576)} MiB installed, over the ${Math.round(maxBytes / 1048576)} MiB an agent may bring`,
          ),
        ],
      };
    fs.writeFileSync(path.join(scratch, ".complete"), new Date().toISOString());
    // Another upload may have installed the same lockfile meanwhile: either tree will do.
    try {
      fs.renameSync(scratch, target);
    } catch {
      if (!fs.existsSync(path.join(target, ".complete"))) throw new Error(`could not keep the installed dependencies`);
    }
    return { nodeModules, installed: wanted, diagnostics: [] };
  } catch (error) {
    const message = (error as Error).message.trim().split("\n").slice(-6).join("\n");
    return {
      installed: [],
      diagnostics: [problem("package-lock.json", `installing its dependencies failed: ${message}`)],
    };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** package.json and its lockfile without what the platform provides, still in step for `npm ci`. */
function withoutProvided(pkg: PackageJson, lock: Lockfile): { pkg: PackageJson; lock: Lockfile } {
  const strip = (deps?: Record<string, string>) =>
    deps ? Object.fromEntries(Object.entries(deps).filter(([name]) => !provided(name))) : undefined;
  const packages = Object.fromEntries(
    Object.entries(lock.packages ?? {}).flatMap(([where, entry]) => {
      const name = where.split("node_modules/").at(-1) ?? "";
      if (where !== "" && provided(name)) return [];
      return [[where, where === "" ? { ...entry, dependencies: strip(entry.dependencies) } : entry]];
    }),
  );
  return {
    pkg: { dependencies: strip(pkg.dependencies) ?? {}, optionalDependencies: strip(pkg.optionalDependencies) ?? {} },
    lock: { ...lock, packages },
  };
}

function npm(args: string[], options: { cwd: string; cacheDir: string; timeoutMs: number }): Promise<void> {
  // The npm that came with this Node, whatever PATH says.
  const cli = path.join(path.dirname(process.execPath), "..", "lib", "node_modules", "npm", "bin", "npm-cli.js");
  if (!fs.existsSync(cli)) return Promise.reject(new Error(`no npm beside this Node (${cli})`));
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [cli, ...args],
      {
        cwd: options.cwd,
        timeout: options.timeoutMs,
        maxBuffer: 4 * 1024 * 1024,
        encoding: "utf8",
        // Only what npm needs, no platform secrets: the home's .npmrc names the registry (and its
        // credentials) this instance uses.
        env: {
          PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`,
          HOME: os.homedir(),
          npm_config_cache: options.cacheDir,
          npm_config_update_notifier: "false",
        } as unknown as NodeJS.ProcessEnv,
      },
      (error: Error | null, _stdout: string, stderr: string) =>
        error ? reject(new Error(stderr || error.message)) : resolve(),
    );
  });
}

function sizeOf(dir: string): number {
  let bytes = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) bytes += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return bytes;
}

function problem(file: string, message: string): Diagnostic {
  return { level: "error", file, message: `${file} ${message}` };
}
