// `agentfold dev` as an author runs it: the real CLI in a child process serving a folder of its
// own; edits reach the next turn of a session that was open before them, a broken edit keeps the
// last good version serving, a busy port moves to the next one, and Ctrl-C stops everything.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { getFreePort } from "@/cli/start/ports";
import { waitFor } from "@/cli/start/wait";
import { cliBin } from "@/testing/cli-process";
import { writeFiles } from "@/testing/folders";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-dev-cli-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const cliEnv: NodeJS.ProcessEnv = { ...process.env, AGENTFOLD_CONFIG_DIR: path.join(scratch, "config") };
for (const name of ["AGENTFOLD_URL", "AGENTFOLD_TOKEN", "DATABASE_URL", "RESTATE_INGRESS_URL", "RESTATE_ADMIN_URL"])
  delete cliEnv[name];

const tool = (answer: string) => `import { defineTool } from "agentfold/tools";
import { z } from "zod";
export default defineTool({
  description: "Says which edit of the folder answered",
  inputSchema: z.object({}),
  async execute() { return { edition: "${answer}" }; },
});
`;

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");

describe("agentfold dev", () => {
  it("serves the folder, reloads edits into open sessions, survives a broken edit, stops on Ctrl-C", {
    // The first stack of a run may build the web app (minutes on two busy cores).
    timeout: 600_000,
  }, async () => {
    const dir = writeFiles(path.join(scratch, "edited"), {
      "bot/instructions.md": "You answer briefly.",
      "bot/tools/edition.ts": tool("first"),
    });
    // The preferred port is taken: dev moves on to the next free one and says so.
    const busy = await getFreePort();
    const holder = net.createServer().listen(busy, "127.0.0.1");
    const child = spawn(
      process.execPath,
      [cliBin, "dev", "--dir", dir, "--port", String(busy), "--state-root", path.join(scratch, "state")],
      { cwd: scratch, env: cliEnv },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    const shows = (text: string | RegExp, timeoutMs = 60_000) =>
      waitFor(
        `dev to print ${text}`,
        async () => (typeof text === "string" ? output.includes(text) : text.test(output)),
        {
          timeoutMs,
        },
      );
    try {
      await shows(/ready in [\d.]+ s; watching/, 540_000);
      expect(output).toContain(`port ${busy} is in use; using`);
      const base = /playground: (http:\/\/127\.0\.0\.1:\d+)\/edited\/playground/.exec(output)![1]!;
      expect(Number(new URL(base).port)).toBeGreaterThan(busy);

      // A loopback caller needs no token; the session is open before the edits.
      const api = `${base}/edited/v1`;
      const post = async (url: string, body: unknown) => {
        const response = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        expect(response.status, await response.clone().text()).toBeLessThan(300);
        return (await response.json()) as { sessionId: string; continuationToken: string };
      };
      /** The tool output and prompt size of the session's `turns`-th turn, once it has ended. */
      const turnOutput = async (sessionId: string, turns = 1) => {
        let outcome: { edition?: string; inputTokens: number } | undefined;
        await waitFor("the turn to end", async () => {
          const text = await (await fetch(`${api}/session/${sessionId}/events`)).text();
          const events = text
            .trim()
            .split("\n")
            .map((line) => JSON.parse(line));
          const ends = events.filter((e) => e.type === "turn.completed" || e.type === "turn.failed");
          const results = events.filter((e) => e.type === "action.result");
          if (ends.length < turns) return false;
          const end = ends.at(-1);
          expect(end.type).toBe("turn.completed");
          outcome = { edition: results.at(-1)?.data.output?.edition, inputTokens: end.data.usage.inputTokens };
          return true;
        });
        return outcome!;
      };
      const started = await post(`${api}/session`, { message: "Which edition? [call edition {}]" });
      expect((await turnOutput(started.sessionId)).edition).toBe("first");
      const fresh = await post(`${api}/session`, { message: "Hello" });
      const before = await turnOutput(fresh.sessionId);

      // The tool and the instructions change: the open session's next turn runs the new tool,
      // and a new session's prompt has the new instructions (one token is one word offline).
      fs.writeFileSync(path.join(dir, "bot/tools/edition.ts"), tool("second"));
      fs.writeFileSync(path.join(dir, "bot/instructions.md"), `You answer briefly. ${words(12)}`);
      await shows(/version \d+ ready in \d+ ms \(\d+ sessions? moved to it\)/);
      // Both saves may come as one load or two: wait until none is pending.
      await waitFor(
        "the edits to be loaded",
        async () => output.lastIndexOf("changed:") < output.lastIndexOf(" ready in "),
      );
      const followed = await post(`${api}/session/${started.sessionId}`, {
        continuationToken: started.continuationToken,
        message: "And now? [call edition {}]",
      });
      expect((await turnOutput(followed.sessionId, 2)).edition).toBe("second");
      const after = await turnOutput((await post(`${api}/session`, { message: "Hello" })).sessionId);
      expect(after.inputTokens - before.inputTokens).toBe(12);

      // A broken edit is reported inline and the last good version keeps answering.
      fs.writeFileSync(path.join(dir, "bot/tools/edition.ts"), "export default defineTool({");
      await shows("the last good version keeps serving");
      expect(output.lastIndexOf("changed:")).toBeLessThan(output.lastIndexOf("keeps serving"));
      expect(output).toMatch(/bot\/tools\/edition\.ts/);
      const still = await post(`${api}/session`, { message: "Still there? [call edition {}]" });
      expect((await turnOutput(still.sessionId)).edition).toBe("second");

      child.kill("SIGINT");
      expect(await exited).toBe(0);
    } finally {
      child.kill("SIGKILL");
      holder.close();
    }
  });
});
