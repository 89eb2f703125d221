// The subset of A2A v0.3 this agent speaks (README.md, "What is implemented"): JSON-RPC 2.0
// framing and error codes, the params of message/send and tasks/get, and the Message and Task
// shapes it answers.
import type { JsonObject } from "agentfold";
import { z } from "zod";

export const protocolVersion = "0.3.0";

// JSON-RPC 2.0's own codes, then A2A's.
export const rpcErrors = {
  parseError: { code: -32700, message: "Parse error" },
  invalidRequest: { code: -32600, message: "Invalid Request" },
  methodNotFound: { code: -32601, message: "Method not found" },
  invalidParams: { code: -32602, message: "Invalid params" },
  internalError: { code: -32603, message: "Internal error" },
  taskNotFound: { code: -32001, message: "Task not found" },
  unsupportedOperation: { code: -32004, message: "This operation is not supported" },
  contentTypeNotSupported: { code: -32005, message: "Incompatible content types" },
} as const;

export type RpcId = string | number | null;
type RpcError = { code: number; message: string };

/** A JSON-RPC request; notifications (no id) are not accepted, since every A2A method answers. */
export const rpcRequestSchema = z.object({
  jsonrpc: z.literal("2.0"),
  id: z.union([z.string(), z.number()]),
  method: z.string().min(1),
  params: z.unknown().optional(),
});

// JSON-RPC errors travel in a 200: the HTTP exchange worked, the call did not.
export function rpcResult(id: RpcId, result: unknown): Response {
  return Response.json({ jsonrpc: "2.0", id, result });
}

export function rpcError(id: RpcId, error: RpcError, data?: unknown): Response {
  return Response.json({ jsonrpc: "2.0", id, error: data === undefined ? error : { ...error, data } });
}

const partSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("text"), text: z.string() }).loose(),
  z.object({ kind: z.enum(["file", "data"]) }).loose(),
]);

export const messageSendParamsSchema = z.object({
  message: z
    .object({
      kind: z.literal("message").optional(),
      messageId: z.string().min(1).max(200),
      role: z.literal("user"),
      parts: z.array(partSchema).min(1),
      // Becomes the session's conversation key `a2a:<contextId>` (at most 500 characters).
      contextId: z.string().min(1).max(200).optional(),
      taskId: z.string().optional(),
    })
    .loose(),
  configuration: z
    .object({ blocking: z.boolean().optional(), historyLength: z.number().int().min(0).optional() })
    .loose()
    .optional(),
});
export type MessageSendParams = z.infer<typeof messageSendParamsSchema>;

export const taskQueryParamsSchema = z.object({
  id: z.string().min(1),
  historyLength: z.number().int().min(0).optional(),
});

export type TaskState = "submitted" | "working" | "completed" | "failed" | "canceled";
export type Part = { kind: "text"; text: string } | { kind: "data"; data: JsonObject };
export type Message = {
  kind: "message";
  messageId: string;
  role: "user" | "agent";
  parts: Part[];
  contextId: string;
  taskId: string;
};
export type Artifact = { artifactId: string; name: string; parts: Part[] };
export type Task = {
  kind: "task";
  id: string;
  contextId: string;
  status: { state: TaskState; message?: Message; timestamp: string };
  history: Message[];
  artifacts: Artifact[];
  /** `sessionId`: the Agentfold session that holds the context's conversation. */
  metadata: { sessionId?: string };
};

/** The last `historyLength` messages of the task's history, as tasks/get and message/send allow. */
export function withHistory(task: Task, historyLength: number | undefined): Task {
  if (historyLength === undefined) return task;
  return { ...task, history: historyLength === 0 ? [] : task.history.slice(-historyLength) };
}
