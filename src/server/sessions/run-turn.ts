// One turn of a chat session, run by the worker inside the session's durable object. Every
// side effect sits in a named, journaled step; every append carries an idempotency key derived
// from the turn and step, so a step replayed after a crash appends nothing twice.
import type { PrismaClient } from "@prisma/client";
import { streamText, type ModelMessage } from "ai";
import type { AgentManifest } from "@/agents/loader/manifest";
import { resolveModel, type ModelProviderSettings } from "@/agents/runtime/models/resolve-model";
import { modelCost } from "@/agents/runtime/models/prices";
import { appendEvents, type NewEvent } from "@/server/events/append-events";
import { prepareWorkspace } from "@/agents/runtime/prepare-workspace";
import { versionPaths, workspaceDir } from "@/server/agents/storage";
import type { TurnRequest } from "@/server/durable/runtime";

export type Step = <T>(name: string, action: () => Promise<T>) => Promise<T>;

export type TurnDeps = {
  db: PrismaClient;
  /** The data directory: agent versions' files and session workspaces live under it. */
  dataDir: string;
  step: Step;
  models: ModelProviderSettings;
  defaultModel: string;
};

type Loaded = {
  modelId: string;
  system: string;
  messages: ModelMessage[];
  version: { agentId: string; versionId: string; hasBundle: boolean };
};

async function loadTurn(db: PrismaClient, sessionId: string, defaultModel: string): Promise<Loaded> {
  const session = await db.session.findUniqueOrThrow({
    where: { id: sessionId },
    select: { agentId: true, agentVersionId: true, agentVersion: { select: { manifest: true, bundlePath: true } } },
  });
  const manifest = session.agentVersion.manifest as AgentManifest | null;
  const configured = typeof manifest?.model === "string" ? manifest.model : (manifest?.model as { id?: string } | undefined)?.id;
  // Only the conversation: the log's many deltas are not read back on every turn.
  const history = await db.sessionEvent.findMany({
    where: { sessionId, type: { in: ["message.received", "message.completed"] } },
    orderBy: { index: "asc" },
    select: { type: true, data: true },
  });
  const messages: ModelMessage[] = history.map((event): ModelMessage => ({
    role: event.type === "message.received" ? "user" : "assistant",
    content: (event.data as { text: string }).text,
  }));
  // Agent folders name Cursor's models ("grok-4.5"); only `provider:model` ids are ours.
  const modelId = configured?.includes(":") ? configured : defaultModel;
  const version = { agentId: session.agentId, versionId: session.agentVersionId, hasBundle: session.agentVersion.bundlePath !== null };
  return { modelId, system: manifest?.instructionsText ?? "", messages, version };
}

export async function runTurn(deps: TurnDeps, turn: TurnRequest): Promise<void> {
  const { db, step } = deps;
  const { sessionId, turnId } = turn;
  const append = (events: NewEvent[]) => appendEvents({ db, sessionId, events: events.map((e) => ({ turnId, ...e })) });
  const loaded = await step("load", () => loadTurn(db, sessionId, deps.defaultModel));
  if (loaded.version.hasBundle) {
    await step("workspace", async () => prepareSessionWorkspace(deps, loaded, turn));
  }
  await step("turn.started", async () => {
    await db.session.update({ where: { id: sessionId }, data: { status: "running" } });
    await append([{ type: "turn.started", data: {}, idempotencyKey: `${turnId}:started` }]);
  });
  const outcome = await step("model:0", () => streamStep(deps, loaded, append, turnId));
  await step("turn.finished", async () => {
    const cost = outcome.ok ? modelCost(loaded.modelId, outcome.usage) : undefined;
    await append([
      outcome.ok
        ? { type: "turn.completed", data: { usage: outcome.usage, ...(cost ? { cost } : {}) }, idempotencyKey: `${turnId}:finished` }
        : { type: "turn.failed", data: { message: outcome.message, status: "error" }, idempotencyKey: `${turnId}:finished` },
      { type: "session.waiting", data: {}, idempotencyKey: `${turnId}:waiting` },
    ]);
    await db.session.update({ where: { id: sessionId }, data: { status: "waiting", runningInvocationId: null } });
  });
}

type Usage = { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number; reasoningTokens?: number };
type StepOutcome = { ok: true; text: string; usage: Usage } | { ok: false; message: string };

async function streamStep(deps: TurnDeps, loaded: Loaded, append: (events: NewEvent[]) => Promise<unknown>, turnId: string): Promise<StepOutcome> {
  const started = Date.now();
  const key = (suffix: string) => `${turnId}:0:${suffix}`;
  await append([{ type: "step.started", data: { step: 0 }, idempotencyKey: key("started") }]);
  let text = "";
  let reasoning = "";
  let deltas = 0;
  let isReasoningClosed = false;
  try {
    const model = resolveModel(loaded.modelId, deps.models);
    const result = streamText({
      model,
      system: loaded.system || undefined,
      messages: loaded.messages,
      // Failures arrive as an "error" part and become turn.failed below; no console noise.
      onError: () => undefined,
    });
    for await (const part of result.fullStream) {
      if (part.type === "reasoning-delta") {
        reasoning += part.text;
        await append([{ type: "reasoning.appended", data: { delta: part.text }, idempotencyKey: key(`d${deltas++}`) }]);
      } else if (part.type === "reasoning-end" && reasoning && !isReasoningClosed) {
        isReasoningClosed = true;
        await append([{ type: "reasoning.completed", data: { text: reasoning }, idempotencyKey: key("reasoning") }]);
      } else if (part.type === "text-delta") {
        text += part.text;
        await append([{ type: "message.appended", data: { delta: part.text }, idempotencyKey: key(`d${deltas++}`) }]);
      } else if (part.type === "error") {
        throw part.error;
      }
    }
    const usage = await result.totalUsage;
    const events: NewEvent[] = [];
    if (reasoning && !isReasoningClosed) events.push({ type: "reasoning.completed", data: { text: reasoning }, idempotencyKey: key("reasoning") });
    events.push({ type: "message.completed", data: { text }, idempotencyKey: key("message") });
    events.push({ type: "step.completed", data: { step: 0, durationMs: Date.now() - started }, idempotencyKey: key("completed") });
    await append(events);
    return {
      ok: true,
      text,
      usage: {
        inputTokens: usage.inputTokens ?? 0,
        outputTokens: usage.outputTokens ?? 0,
        cacheReadTokens: usage.inputTokenDetails?.cacheReadTokens ?? 0,
        cacheWriteTokens: usage.inputTokenDetails?.cacheWriteTokens ?? 0,
        ...(usage.outputTokenDetails?.reasoningTokens ? { reasoningTokens: usage.outputTokenDetails.reasoningTokens } : {}),
      },
    };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/** Seeds the session workspace on its first turn and writes this send's workspaceFiles. */
async function prepareSessionWorkspace(deps: TurnDeps, loaded: Loaded, turn: TurnRequest): Promise<void> {
  const { agentId, versionId } = loaded.version;
  const paths = versionPaths(deps.dataDir, agentId, versionId);
  const version = await deps.db.agentVersion.findUniqueOrThrow({ where: { id: versionId }, select: { manifest: true } });
  prepareWorkspace({
    workspaceDir: workspaceDir(deps.dataDir, agentId, turn.sessionId),
    sourceDir: paths.source,
    bundleDir: paths.bundle,
    manifest: version.manifest as unknown as AgentManifest,
    workspaceFiles: turn.workspaceFiles,
  });
}
