// OpenAI's error body, shared by the Responses API and Chat Completions (and copied by the servers
// that imitate it): `{ error: { message, type, param, code } }`, type and code as api.openai.com sends.
import type { FakeErrorReply, JsonBody } from "./reply";

const errorKinds: Record<number, [type: string, code: string | null]> = {
  401: ["invalid_request_error", "invalid_api_key"],
  429: ["requests", "rate_limit_exceeded"],
};

export function openaiErrorBody({ status, message }: FakeErrorReply["error"]): JsonBody {
  const [type, code] = errorKinds[status] ?? (status >= 500 ? ["server_error", null] : ["invalid_request_error", null]);
  return { error: { message, type, param: null, code } };
}
