// What bundling says of imports the authoring package cannot satisfy: each is one error on the
// author's file and line, naming the specifier as the author wrote it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatDiagnostic } from "@/agents/loader/diagnostics";
import { writeFiles } from "@/testing/folders";
import { bundleAgent } from "./bundle-agent";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-bundle-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

async function bundleErrors(name: string, files: Record<string, string>): Promise<string[]> {
  const folderDir = writeFiles(path.join(scratch, name), files);
  const moduleFiles = Object.keys(files).filter((file) => file.endsWith(".ts"));
  const result = await bundleAgent({ folderDir, moduleFiles, outDir: path.join(scratch, `${name}-out`) });
  return result.diagnostics.map(formatDiagnostic);
}

describe("imports the authoring package cannot satisfy", () => {
  it("names the specifier of a multi-line import, not the platform's module", async () => {
    const errors = await bundleErrors("multi-line", {
      "bot/lib/checks.ts": [
        "// the checks every eval shares",
        "import {",
        "  includes,",
        "  notAThing,",
        '} from "@cursor/bdk/evals";',
        "",
        "export const checks = [includes, notAThing];",
      ].join("\n"),
    });
    expect(errors).toEqual([
      "error: bot/lib/checks.ts:4: 'notAThing' is not exported by @cursor/bdk/evals on this platform (docs/compatibility.md lists what is)",
    ]);
  });

  it("says a Cursor-hosted subpath is Cursor-hosted only, and what to do instead; /extensions/jev bundles", async () => {
    const errors = await bundleErrors("hosted-subpaths", {
      "bot/tools/gate.ts": 'import { decide } from "@cursor/bdk/extensions/jev";\nexport default decide;\n',
      "bot/extensions/cloud.ts": [
        "// Cursor Cloud Agents, mounted as `cloud`",
        'import cursorCloudAgents from "@cursor/bdk/extensions/cursor-cloud-agents";',
        "export default cursorCloudAgents({});",
      ].join("\n"),
      "bot/extensions/other.ts": 'import x from "@cursor/july/extensions/linear";\nexport default x;\n',
    });
    // esbuild reports them in the order its resolves finish.
    expect(errors.sort()).toEqual([
      "error: bot/extensions/cloud.ts:2: '@cursor/bdk/extensions/cursor-cloud-agents' is Cursor-hosted only: it launches Cursor Cloud Agents on Cursor's backend; start work on this instance with ctx.send(...) instead, or call Cursor's Cloud Agents API from a tool with your own key in hosting.secretNames (docs/compatibility.md, \"Cursor-hosted only\")",
      "error: bot/extensions/other.ts:1: '@cursor/july/extensions/linear' is Cursor-hosted only: extensions are mounted by Cursor's hosting; copy the tools, skills and connections the agent needs into bot/ (docs/compatibility.md, \"Cursor-hosted only\")",
    ]);
  });

  it("says what Cursor-hosted names are, wherever they are imported from", async () => {
    const errors = await bundleErrors("hosted-names", {
      "bot/extensions/notion.ts":
        'import { cursorPlugin } from "@cursor/bdk";\nexport default cursorPlugin("notion");\n',
      "bot/tools/serve.ts": 'import {\n  serve,\n} from "@cursor/bdk";\nexport default serve;\n',
    });
    expect(errors).toEqual([
      "error: bot/extensions/notion.ts:1: 'cursorPlugin' from @cursor/bdk is Cursor-hosted only: it mounts a plugin from Cursor's marketplace, which Cursor's hosting fetches; copy the plugin's skills into bot/skills/ and its MCP servers into bot/mcp-connections/ (docs/compatibility.md, \"Cursor-hosted only\")",
      "error: bot/tools/serve.ts:2: 'serve' from @cursor/bdk is not available on Agentfold: the platform serves the agent: `agentfold dev` on your machine, `agentfold deploy` to an instance, whose scoped tokens replace authToken (docs/cli.md)",
    ]);
  });

  it("still names the specifier when the module also reads its own path (its first line is longer once loaded)", async () => {
    const errors = await bundleErrors("first-line", {
      "bot/tools/a.ts":
        'import { notAThing } from "@cursor/july/tools"; import { x } from "./x.js";\nexport default [notAThing, x, import.meta.url];\n',
      "bot/tools/x.ts": 'export const x = "from ./x.js";\n',
    });
    expect(errors).toEqual([
      "error: bot/tools/a.ts:1: 'notAThing' is not exported by @cursor/july/tools on this platform (docs/compatibility.md lists what is)",
    ]);
  });
});

describe("a package the deploy did not bundle", () => {
  it("says node_modules lacked it at deploy, and what to run", async () => {
    const errors = await bundleErrors("stale-node-modules", {
      "bot/tools/pad.ts": 'import pad from "left-pad";\nexport const padded = pad("1", 3);\n',
      "agentfold-dependencies/manifest.json": '{"packages":[]}',
    });
    expect(errors).toEqual([
      "error: bot/tools/pad.ts:1: cannot resolve 'left-pad' from bot/tools/pad.ts: it is not among the packages " +
        "bundled from node_modules at deploy (run `npm install` so node_modules has it, then deploy again)",
    ]);
  });
});

describe("imports that reach outside the upload", () => {
  it("bundle nothing from outside: a relative or absolute path, or a package's main pointing out", async () => {
    const secret = path.join(scratch, "other-team", "secret.js");
    writeFiles(path.dirname(secret), { "secret.js": 'export default "other team\'s secret";\n' });
    const errors = await bundleErrors("reaching-out", {
      "bot/tools/relative.ts": 'import s from "../../../other-team/secret.js";\nexport default s;\n',
      "bot/tools/absolute.ts": `import s from ${JSON.stringify(secret)};\nexport default s;\n`,
      "bot/tools/package.ts": 'import s from "sneaky";\nexport default s;\n',
      "node_modules/sneaky/package.json": JSON.stringify({ name: "sneaky", main: "../../../other-team/secret.js" }),
    });
    expect(errors.sort()).toEqual([
      `error: bot/tools/absolute.ts:1: cannot resolve '${secret}' from bot/tools/absolute.ts: it is outside the project, ` +
        'and only the project is uploaded (the agent folder, or the nearest folder above it with a package.json: docs/agent-folders.md, "What is uploaded")',
      "error: bot/tools/package.ts:1: cannot resolve 'sneaky' from bot/tools/package.ts",
      "error: bot/tools/relative.ts:1: cannot resolve '../../../other-team/secret.js' from bot/tools/relative.ts: it is outside the project, " +
        'and only the project is uploaded (the agent folder, or the nearest folder above it with a package.json: docs/agent-folders.md, "What is uploaded")',
    ]);
  });

  it("still bundles the project's own files, its packages and Node's modules", async () => {
    const errors = await bundleErrors("staying-in", {
      "bot/tools/ok.ts":
        'import fs from "node:fs";\nimport pad from "pad";\nimport { x } from "../lib/x";\nexport default [fs, pad, x];\n',
      "bot/lib/x.ts": "export const x = 1;\n",
      "node_modules/pad/package.json": JSON.stringify({ name: "pad", main: "index.js" }),
      "node_modules/pad/index.js": "module.exports = (s) => s;\n",
    });
    expect(errors).toEqual([]);
  });
});
