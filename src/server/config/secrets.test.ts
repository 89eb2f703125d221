import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { readOrCreateSecret } from "./secrets";

const run = promisify(execFile);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-secrets-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe("readOrCreateSecret", () => {
  it("gives processes starting together one whole secret, never a half-written file", async () => {
    const file = path.join(scratch, "race", "secret-key");
    const module = path.join(import.meta.dirname, "secrets.ts");
    const script = `const { readOrCreateSecret } = await import(${JSON.stringify(module)});
      process.stdout.write(readOrCreateSecret(${JSON.stringify(file)}, () => "s-" + process.pid + "-".repeat(40)));`;
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script]).then((r) => r.stdout),
      ),
    );
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).toMatch(/^s-\d+-{40}$/);
    expect(fs.readFileSync(file, "utf8")).toBe(`${answers[0]}\n`);
    expect(fs.readdirSync(path.dirname(file))).toEqual(["secret-key"]);
    expect(readOrCreateSecret(file, () => "another")).toBe(answers[0]);
  });
});
