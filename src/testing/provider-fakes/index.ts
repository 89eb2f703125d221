// Local HTTP fakes of the OpenAI, Anthropic, OpenAI-compatible and xAI streaming APIs; see server.ts.
export { startProviderFake, type FakeProvider, type ProviderFake, type RecordedRequest } from "./server";
export { thinkingSignature } from "./anthropic-messages";
export type { FakeReply, FakeScript, FakeStreamReply, FakeToolCall, FakeUsage, JsonBody } from "./reply";
