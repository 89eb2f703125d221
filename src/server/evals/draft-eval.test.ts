// A session's events become a draft eval a person can save as it is: the exact source for a
// typical session, what changes it (a dry run, a failed turn, no reply), a reply fragment that
// the reply always matches, and a draft that type-checks against `agentfold/evals`, bundles, and
// passes when replayed against the very session it came from (and fails against another).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as esbuild from "esbuild";
import fc from "fast-check";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { sdkImport, sdkModulePath } from "@/agents/bundle/aliases";
import { includes, trajectoryChecks, type EvalDescriptor, type EvalT } from "@/agents/sdk/evals";
import { sessionEventSchema, type SessionEvent } from "@/agents/sdk/events";
import { AppError } from "@/server/errors";
import { buildEvalDraft, draftName, replyFragment } from "./draft-eval";

const sessionId = "ses_0123456789abcdef";
const srcDir = path.resolve(import.meta.dirname, "../..");

function log() {
  const events: SessionEvent[] = [];
  let turn = 0;
  const add = (type: string, data: object, turnId?: string | null) => {
    const index = events.length;
    const at = new Date(Date.UTC(2026, 0, 1) + index * 1000).toISOString();
    const id = turnId === null ? undefined : (turnId ?? `turn_${turn}`);
    events.push(sessionEventSchema.parse({ type, index, sessionId, ...(id ? { turnId: id } : {}), at, data }));
  };
  return {
    events,
    started: (data: object = {}) =>
      add("session.started", { channelId: "http", mode: "chat", purpose: "live", ...data }, null),
    /** One turn: the message, tool calls (`name` or `[name, parentCallId]`), and the reply. */
    turn(message: string, calls: (string | [string, string])[], reply?: string, failure?: string) {
      turn++;
      add("message.received", { text: message });
      add("turn.started", {});
      for (const [i, call] of calls.entries()) {
        const [toolName, parentCallId] = typeof call === "string" ? [call] : call;
        const callId = `call_${turn}_${i}`;
        add("actions.requested", { calls: [{ callId, toolName, ...(parentCallId ? { parentCallId } : {}) }] });
        add("action.result", { callId, toolName, isError: false, output: "ok" });
      }
      if (reply !== undefined) add("message.completed", { text: reply });
      if (failure) add("turn.failed", { message: failure });
      else add("turn.completed", {});
    },
  };
}

function orderSession() {
  const session = log();
  session.started();
  session.turn("Where is order A-1001?", ["lookup_order", "task", ["lookup_order_internal", "call_1_1"]], "Checking.");
  session.turn("And can I get a refund?", ["issue_refund"], "**Refund issued** for order A-1001: 3 to 5 days.");
  return session.events;
}

describe("buildEvalDraft", () => {
  it("replays the messages in order, then asserts success, each tool called, and the last reply", () => {
    const draft = buildEvalDraft({ sessionId, title: "Order A-1001 refund", events: orderSession() });
    expect(draft.path).toBe("evals/order-a-1001-refund.eval.ts");
    expect(draft.source).toBe(
      [
        'import { defineEval, includes } from "agentfold/evals";',
        "",
        `// Drafted from ${sessionId} (Order A-1001 refund): its 2 messages again, and what it did.`,
        "// A real model words its reply differently each run: keep the fragment to what must be said.",
        "export default defineEval({",
        `  description: "Replays ${sessionId}: Order A-1001 refund",`,
        "  test: async (t) => {",
        '    await t.send("Where is order A-1001?");',
        '    await t.send("And can I get a refund?");',
        "    t.succeeded();",
        '    t.calledTool("lookup_order");',
        '    t.calledTool("task");',
        '    t.calledTool("issue_refund");',
        '    t.check(t.reply, includes("Refund issued"));',
        "  },",
        "});",
        "",
      ].join("\n"),
    );
  });

  it("starts a dry-run session as a dry run, and says where a turn failed", () => {
    const session = log();
    session.started({ dryRun: true });
    session.turn("Refund A-2", ["issue_refund"], undefined, "the model provider refused");
    const { source } = buildEvalDraft({ sessionId, title: null, events: session.events });
    expect(source).toContain('await t.send("Refund A-2", { dryRun: true });');
    expect(source).toContain(
      `// A turn of ${sessionId} failed (the model provider refused): this expects it to succeed.`,
    );
    // No reply to quote: no check of it, and no unused import.
    expect(source).not.toContain("t.check");
    expect(source.split("\n")[0]).toBe('import { defineEval } from "agentfold/evals";');
  });

  it("quotes messages as string literals, whatever they hold", () => {
    const text = 'Line one\nsays "hi" `${x}` \\ and \u2028 ends';
    const session = log();
    session.started();
    session.turn(text, [], "Done.");
    const { source } = buildEvalDraft({ sessionId, title: null, events: session.events });
    const literal = source.match(/await t\.send\((.*)\);/)![1]!;
    expect(JSON.parse(literal)).toBe(text);
  });

  it("names the file so that it replaces none of the version's evals", () => {
    const events = orderSession();
    const takenNames = new Set(["order-a-1001-refund", "refunds"]);
    expect(buildEvalDraft({ sessionId, title: "Order A-1001 refund", events, takenNames }).path).toBe(
      "evals/order-a-1001-refund-01234567.eval.ts",
    );
    expect(buildEvalDraft({ sessionId, title: "Refunds please", events, takenNames }).path).toBe(
      "evals/refunds-please.eval.ts",
    );
  });

  it("refuses a session with no message to replay", () => {
    const session = log();
    session.started();
    expect(() => buildEvalDraft({ sessionId, title: null, events: session.events })).toThrow(AppError);
  });
});

describe("replyFragment", () => {
  it("takes the first plain words, cut at a word", () => {
    expect(replyFragment("## Summary\n\nYour order ships on Monday morning from the warehouse in Leeds.")).toEqual({
      kind: "text",
      text: "Your order ships on Monday morning from the",
    });
    expect(replyFragment("- `lookup_order` says: shipped")).toEqual({ kind: "text", text: "says: shipped" });
    expect(replyFragment("")).toBeUndefined();
  });

  it("lets numbers vary, and escapes what a regex would read", () => {
    expect(replyFragment("Order A-1001 costs $12.50 (incl. tax)")).toEqual({
      kind: "regex",
      source: "Order A-\\d+ costs \\$\\d+\\.\\d+",
    });
  });

  it("is always a piece the reply itself matches", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), (reply) => {
        const fragment = replyFragment(reply);
        if (!fragment) return;
        const matcher = includes(fragment.kind === "text" ? fragment.text : new RegExp(fragment.source));
        expect(matcher.test(reply).pass).toBe(true);
        expect(fragment.kind === "text" ? fragment.text : fragment.source).not.toMatch(/[\n\r\u2028\u2029]/);
      }),
    );
  });
});

describe("draftName", () => {
  it("is a few words of the title or message, else the session's id", () => {
    expect(draftName("Refund for A-1001, please!", sessionId)).toBe("refund-for-a-1001-please");
    expect(draftName("one two three four five six seven eight", sessionId)).toBe("one-two-three-four-five-six");
    expect(draftName("¿¡!?", sessionId)).toBe("session-01234567");
    expect(draftName("Index", sessionId)).toBe("session-01234567");
  });
});

describe("a draft as saved in an agent folder", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-draft-"));
  const draft = buildEvalDraft({ sessionId, title: "Order A-1001 refund", events: orderSession() });

  function typeErrors(source: string): string[] {
    const file = path.join(dir, "check", draft.path);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, source);
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      lib: ["lib.es2023.d.ts"],
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      types: [],
      baseUrl: srcDir,
      paths: { "agentfold/*": ["agents/sdk/*"], "@/*": ["*"] },
    });
    return ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.category === ts.DiagnosticCategory.Error && d.file?.fileName === file)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  }

  it("type-checks against agentfold/evals (and the check does catch a wrong call)", () => {
    expect(typeErrors(draft.source)).toEqual([]);
    expect(typeErrors(draft.source.replace('t.calledTool("task")', "t.calledTool(42)"))).not.toEqual([]);
  });

  it("bundles with the SDK aliases and passes when replayed against its own session", async () => {
    const outFile = path.join(dir, "bundle", "draft.mjs");
    const built = await esbuild.build({
      stdin: { contents: draft.source, resolveDir: dir, loader: "ts", sourcefile: draft.path },
      bundle: true,
      format: "esm",
      platform: "node",
      outfile: outFile,
      logLevel: "silent",
      plugins: [
        {
          name: "sdk",
          setup(build) {
            build.onResolve({ filter: sdkImport }, (args) => ({
              path: sdkModulePath(path.join(srcDir, "agents/sdk"), args.path),
            }));
          },
        },
      ],
    });
    expect(built.errors).toEqual([]);
    const descriptor = ((await import(outFile)) as { default: EvalDescriptor }).default;

    const own = await replay(descriptor, orderSession());
    expect(own.sent).toEqual(["Where is order A-1001?", "And can I get a refund?"]);
    expect(own.results.filter((result) => !result.pass)).toEqual([]);
    expect(own.results).toHaveLength(5);

    // The same messages answered without the refund: the draft notices.
    const other = log();
    other.started();
    other.turn("Where is order A-1001?", ["lookup_order", "task"], "Checking.");
    other.turn("And can I get a refund?", [], "No refunds today.");
    const failed = (await replay(descriptor, other.events)).results.filter((result) => !result.pass);
    expect(failed.map((result) => result.message)).toEqual([
      "expected a call to issue_refund; called: lookup_order, task",
      'expected "No refunds today." to include "Refund issued"',
    ]);
  });
});

/** Runs an eval's test against a recorded session, one turn per send, as the runner would. */
async function replay(descriptor: EvalDescriptor, events: SessionEvent[]) {
  const turns = events.filter((event) => event.type === "message.received").map((event) => event.turnId);
  const sent: string[] = [];
  const results: { pass: boolean; message: string }[] = [];
  let seen: SessionEvent[] = events.filter((event) => !event.turnId);
  const checks = () => trajectoryChecks(seen);
  const t = {
    async send(message: string) {
      const turnId = turns[sent.length];
      sent.push(message);
      seen = [...seen, ...events.filter((event) => event.turnId === turnId)];
      return { sessionId, reply: checks().reply, events: seen };
    },
    succeeded: () => void results.push(checks().succeeded()),
    calledTool: (name: string) => void results.push(checks().calledTool(name)),
    notCalledTool: (name: string) => void results.push(checks().notCalledTool(name)),
    get reply() {
      return checks().reply;
    },
    check: (value: unknown, matcher: { test(value: unknown): { pass: boolean; message: string } }) =>
      void results.push(matcher.test(value)),
    require: () => {
      throw new Error("a draft does not use require");
    },
    judge: async () => {
      throw new Error("a draft does not use judge");
    },
    get events() {
      return seen;
    },
  } satisfies EvalT;
  await descriptor.test!(t);
  return { sent, results };
}
