// Agent folders for the turn engine's integration tests. Tools that must be counted outside the
// database (ran exactly once, never retried) keep their counters in files under ctx.stateRoot.
const tool = (effect: "read" | "write", body: string, extra = "") => `import { defineTool } from "agentfold/tools";
import { z } from "zod";
import fs from "node:fs";
import path from "node:path";
const bump = (dir, name) => {
  const file = path.join(dir, name);
  const n = (fs.existsSync(file) ? Number(fs.readFileSync(file, "utf8")) : 0) + 1;
  fs.writeFileSync(file, String(n));
  return n;
};
export default defineTool({ description: "test tool", effect: "${effect}",${extra}
  async execute(input, ctx) { ${body} } });
`;

export const engineAgent: Record<string, string> = {
  "bot/instructions.md": "You are the engine test agent.",
  "bot/tools/lookup.ts": tool(
    "read",
    'return { orderId: input.orderId, status: "shipped" };',
    " inputSchema: z.object({ orderId: z.string() }),",
  ),
  "bot/tools/flaky.ts": tool(
    "read",
    'if (bump(ctx.stateRoot, "flaky-" + ctx.toolCallId) < 3) throw new Error("upstream hiccup"); return "steady now";',
  ),
  "bot/tools/broken.ts": tool(
    "read",
    'bump(ctx.stateRoot, "broken-" + ctx.toolCallId); throw new Error("service down");',
  ),
  "bot/tools/declined.ts": tool(
    "write",
    'bump(ctx.stateRoot, "declined-" + ctx.toolCallId); throw new Error("card declined");',
  ),
  "bot/tools/record.ts": tool(
    "write",
    'fs.appendFileSync(path.join(ctx.stateRoot, "record.log"), ctx.toolCallId + "\\n"); return "recorded";',
  ),
  "bot/tools/slow.ts": tool(
    "write",
    "await new Promise((r) => setTimeout(r, 5000)); return 'late';",
    " timeoutMs: 300,",
  ),
  "bot/tools/sleepy.ts": tool(
    "write",
    'bump(ctx.stateRoot, "sleepy-start-" + ctx.toolCallId); await new Promise((r) => setTimeout(r, input.ms ?? 1000)); bump(ctx.stateRoot, "sleepy-done-" + ctx.toolCallId); return "rested";',
  ),
  "bot/tools/tally.ts": tool("read", "return { counted: (input.items ?? []).length };", ' execution: "agent",'),
  "bot/tools/later.ts": tool(
    "write",
    'const made = await ctx.host.reminders.create({ in: "1s", prompt: input.prompt ?? "from a tool" }); const list = await ctx.host.reminders.list(); return { made, pending: list.length };',
  ),
  "bot/tools/rich.ts": tool(
    "read",
    'return { content: [{ type: "text", text: "line one" }, { type: "text", text: "line two" }] };',
  ),
  "bot/skills/refunds.md":
    "---\ndescription: How to refund an order\n---\nRefunds go back to the original card within 5 days.",
  "bot/subagents/researcher/agent.ts":
    'import { defineAgent } from "agentfold";\nexport default defineAgent({ description: "Looks things up for the parent" });\n',
  "bot/subagents/researcher/instructions.md": "You research orders.",
};

export const strictAgent: Record<string, string> = {
  "bot/instructions.md": "You are the strict test agent.",
  "bot/result.ts": `import { defineResult } from "agentfold/result";
export default defineResult({
  commit(text, ctx) {
    if (text.includes("NEVER")) ctx.reject("NEVER is not allowed");
    if (!text.includes("APPROVED")) ctx.reject("say APPROVED");
    if (text.includes("explode")) throw new Error("commit exploded");
    return { length: text.length };
  },
});
`,
};

/** Tools that need a human decision; each run records who approved it. */
export const approvalAgent: Record<string, string> = {
  "bot/instructions.md": "You are the approvals test agent.",
  "bot/tools/refund.ts": tool(
    "write",
    'fs.appendFileSync(path.join(ctx.stateRoot, "refunds.log"), JSON.stringify({ callId: ctx.toolCallId, amount: input.amount, approvedBy: ctx.approvedBy ?? null }) + "\\n"); return { refunded: input.amount, approvedBy: ctx.approvedBy?.id ?? null };',
    " needsApproval: true,",
  ),
  "bot/tools/big_refund.ts": tool(
    "write",
    "return { refunded: input.amount, approvedBy: ctx.approvedBy?.id ?? null };",
    " needsApproval: (input) => input.amount > 100,",
  ),
  "bot/tools/lookup.ts": tool("read", 'return { orderId: input.orderId, status: "shipped" };'),
};
