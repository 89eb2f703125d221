// A2A tasks as records in host.kv, `tasks/<id>`: one per message/send or /invoke, moving
// submitted → working → completed | failed | canceled as the session's turn goes. A record belongs
// to the caller the auth chain admitted, and only that caller reads it back.
import type { KvStore, SendOptions, SessionCompletion, SessionHandle } from "agentfold";
import type { Message, Part, Task, TaskState } from "./a2a";

type Send = (message: string, options?: SendOptions) => Promise<SessionHandle>;
type Stored = { owner: string; task: Task };
export type Outcome = { task: Task; completion: SessionCompletion };

const keyOf = (id: string) => `tasks/${id}`;
const now = () => new Date().toISOString();
const states: Record<SessionCompletion["status"], TaskState> = {
  finished: "completed",
  failed: "failed",
  cancelled: "canceled",
};

export async function readTask(kv: KvStore, id: string, owner: string): Promise<Task | undefined> {
  const stored = (await kv.get(keyOf(id))) as Stored | undefined;
  // Another caller's task answers as a missing one does, so task ids cannot be probed.
  return stored?.owner === owner ? stored.task : undefined;
}

async function save(kv: KvStore, stored: Stored, options?: { ifVersion: number }) {
  await kv.put(keyOf(stored.task.id), stored, options);
}

/** Records the task and sends its text into the context's session; `outcome` settles when the turn
 * ends and the record has its final state. */
export async function startTask(options: {
  kv: KvStore;
  send: Send;
  owner: string;
  text: string;
  contextId: string;
  messageId: string;
}): Promise<{ task: Task; outcome: Promise<Outcome> }> {
  const { kv, send, owner, text, contextId, messageId } = options;
  const id = crypto.randomUUID();
  const asked: Message = {
    kind: "message",
    messageId,
    role: "user",
    parts: [{ kind: "text", text }],
    contextId,
    taskId: id,
  };
  const submitted: Task = {
    kind: "task",
    id,
    contextId,
    status: { state: "submitted", timestamp: now() },
    history: [asked],
    artifacts: [],
    metadata: {},
  };
  await save(kv, { owner, task: submitted }, { ifVersion: 0 });
  let session: SessionHandle;
  try {
    // One context is one session: the conversation key picks it, the first send starts it.
    session = await send(text, { continuationToken: `a2a:${contextId}`, title: `A2A context ${contextId}` });
  } catch (error) {
    const completion: SessionCompletion = { status: "failed", errorMessage: messageOf(error) };
    const task = settle(submitted, completion);
    await save(kv, { owner, task });
    return { task, outcome: Promise.resolve({ task, completion }) };
  }
  const working: Task = {
    ...submitted,
    status: { state: "working", timestamp: now() },
    metadata: { sessionId: session.id },
  };
  await save(kv, { owner, task: working });
  const outcome = session
    .waitForCompletion()
    .catch((error): SessionCompletion => ({ status: "failed", errorMessage: messageOf(error) }))
    .then(async (completion) => {
      const task = settle(working, completion);
      await save(kv, { owner, task });
      return { task, completion };
    });
  return { task: working, outcome };
}

function settle(task: Task, completion: SessionCompletion): Task {
  const isFinished = completion.status === "finished";
  const parts: Part[] = isFinished
    ? [replyPart(completion.result)]
    : [{ kind: "text", text: completion.errorMessage ?? `the turn was ${completion.status}` }];
  const message: Message = {
    kind: "message",
    messageId: crypto.randomUUID(),
    role: "agent",
    parts,
    contextId: task.contextId,
    taskId: task.id,
  };
  return {
    ...task,
    status: { state: states[completion.status], message, timestamp: now() },
    history: isFinished ? [...task.history, message] : task.history,
    artifacts: isFinished ? [{ artifactId: crypto.randomUUID(), name: "reply", parts }] : [],
  };
}

/** The reply text; a result contract's JSON object goes in a data part (A2A's data is an object). */
function replyPart(result: SessionCompletion["result"]): Part {
  if (typeof result === "object" && result !== null && !Array.isArray(result)) return { kind: "data", data: result };
  return {
    kind: "text",
    text: typeof result === "string" ? result : result === undefined ? "" : JSON.stringify(result),
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
