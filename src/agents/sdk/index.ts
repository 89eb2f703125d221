// `agentfold` (and `@cursor/july`, `@cursor/bdk`): the package root. defineAgent,
// defineInstructions, prompt, and the types agent code is written against.
export {
  defineAgent,
  defineInstructions,
  type AgentConfig,
  type AgentDescriptor,
  type AgentRuntime,
  type InstructionsConfig,
  type InstructionsDescriptor,
  type ModelConfig,
  type ModelParam,
} from "./agent";
export { prompt, type PromptTag } from "./prompt";
export {
  DefinitionError,
  descriptorKind,
  descriptorKindOf,
  type Descriptor,
  type DescriptorKind,
} from "./descriptor";
export type { SessionEvent, SessionEventOf, SessionEventType, Usage } from "./events";
export type { HookContext } from "./hooks";
export type { FilesStore, HostServices, KvStore, McpApi, OtelApi, RemindersApi } from "./host";
export type { SessionArtifactsApi, ToolContext, ToolSession } from "./tool-context";
export type { ToolExecuteResult } from "./tool-result";
export type {
  Admission,
  ArtifactRecord,
  ArtifactsApi,
  HandlerSession,
  JsonObject,
  JsonValue,
  Principal,
  SendOptions,
  SessionCompletion,
  SessionHandle,
  SessionMode,
  SessionPurpose,
  SessionRef,
} from "./types";
