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
// Folders written for Cursor's SDK also import the helpers from the package root
// (`import { defineTool } from "@cursor/bdk"`): the same functions as their subpaths'.
export { defineTool } from "./tools";
export { defineHook } from "./hooks";
export { defineSchedule } from "./schedules";
export { defineSkill } from "./skills";
export { defineEval, defineEvalConfig } from "./evals";
export { defineConnection } from "./connections";
export { defineArtifacts } from "./artifacts";
export { defineResult } from "./result";
export { defineChannel } from "./channels";
