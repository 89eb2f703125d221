// Each of the project's own modules sees its own path in the sandbox, as on the author's machine:
// `import.meta.url` (and `.dirname`, `.filename`), `__dirname` and `__filename` name the module's
// file in the uploaded project, so `new URL("../knowledge/policy.md", import.meta.url)` and
// `path.join(__dirname, "../knowledge/policy.md")` read the project's file (docs/agent-folders.md,
// "Files beside the code"). Bundled, every module would otherwise see the bundle's URL, and
// `__dirname` would not exist. Dependencies in node_modules keep what they saw before.
import fs from "node:fs";
import path from "node:path";
import type * as esbuild from "esbuild";
import { dependencyBundleFolder } from "./dependency-bundle";

// What each name becomes: a variable every project module declares for itself. esbuild's define
// replaces only unbound names, so a module's own `const __dirname = …` is left alone.
const replaced = {
  "import.meta.url": "__agentfoldImportMetaUrl",
  "import.meta.dirname": "__agentfoldImportMetaDirname",
  "import.meta.filename": "__agentfoldImportMetaFilename",
  __dirname: "__agentfoldDirname",
  __filename: "__agentfoldFilename",
};

export const modulePathDefines: Record<string, string> = replaced;

/** Runs first in the bundle. The project root is the sandbox's working directory (sandbox.ts) —
 * not where the bundle was built, since an upload is extracted in one place and served from
 * another. A dependency's `import.meta.*` still reads the bundle's (`var`: a project module's
 * declaration of the same name may share it), its `__dirname` stays undefined. */
export const modulePathsBanner = [
  'import { pathToFileURL as __agentfoldPathToFileURL } from "node:url";',
  "const __agentfoldProjectRoot = process.cwd();",
  'const __agentfoldProjectFile = (file) => __agentfoldProjectRoot + "/" + file;',
  `var ${replaced["import.meta.url"]} = import.meta.url, ${replaced["import.meta.dirname"]} = import.meta.dirname,`,
  `  ${replaced["import.meta.filename"]} = import.meta.filename;`,
].join("\n");

const loaders: Record<string, esbuild.Loader> = {
  ".ts": "ts",
  ".mts": "ts",
  ".cts": "ts",
  ".tsx": "tsx",
  ".js": "js",
  ".mjs": "js",
  ".cjs": "js",
  ".jsx": "jsx",
};

/** The declarations one module gets, on its first line so every later line keeps its number. */
function declarations(relative: string): string {
  const file = `__agentfoldProjectFile(${JSON.stringify(relative)})`;
  const parent = path.posix.dirname(relative);
  const dir = parent === "." ? "__agentfoldProjectRoot" : `__agentfoldProjectFile(${JSON.stringify(parent)})`;
  return (
    `var ${replaced.__filename} = ${file}, ${replaced.__dirname} = ${dir}, ` +
    `${replaced["import.meta.url"]} = __agentfoldPathToFileURL(${replaced.__filename}).href, ` +
    `${replaced["import.meta.filename"]} = ${replaced.__filename}, ${replaced["import.meta.dirname"]} = ${replaced.__dirname}; `
  );
}

// Packages: installed ones, and those `deploy` bundled from the author's node_modules.
const isDependency = (relative: string) =>
  relative.split(path.sep).some((segment) => segment === "node_modules") ||
  relative.startsWith(dependencyBundleFolder + path.sep);

/** `projectDir`: the upload's root, where the sandbox runs. */
export function modulePathsPlugin(projectDir: string): esbuild.Plugin {
  const root = path.resolve(projectDir) + path.sep;
  return {
    name: "agentfold-module-paths",
    setup(build) {
      build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async (args) => {
        if (!args.path.startsWith(root) || isDependency(args.path.slice(root.length))) return undefined;
        const text = await fs.promises.readFile(args.path, "utf8");
        if (!/import\.meta|__dirname|__filename/.test(text)) return undefined;
        const relative = path.relative(root, args.path).split(path.sep).join("/");
        // A shebang must stay first: it becomes a comment after the declarations, on the same line.
        const body = text.startsWith("#!") ? `//${text.slice(2)}` : text;
        return { contents: declarations(relative) + body, loader: loaders[path.extname(args.path)] ?? "ts" };
      });
    },
  };
}
