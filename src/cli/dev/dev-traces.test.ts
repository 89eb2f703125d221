import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resumeTrace } from "./dev-traces";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-traces-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe("resumeTrace", () => {
  it("goes on after the last whole line, dropping one a crash cut off", () => {
    const file = path.join(scratch, "ses_1.ndjson");
    expect(resumeTrace(file)).toBe(0);
    fs.writeFileSync(file, '{"index":0,"type":"a"}\n{"index":1,"type":"b"}\n{"index":2,"ty');
    expect(resumeTrace(file)).toBe(2);
    expect(fs.readFileSync(file, "utf8")).toBe('{"index":0,"type":"a"}\n{"index":1,"type":"b"}\n');
    expect(resumeTrace(file)).toBe(2);
    fs.writeFileSync(file, '{"index":0,"ty');
    expect(resumeTrace(file)).toBe(0);
    expect(fs.readFileSync(file, "utf8")).toBe("");
  });
});
