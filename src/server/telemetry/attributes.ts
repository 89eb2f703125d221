// The attribute names the platform sets on its spans and metrics (docs/telemetry.md). The gen_ai
// ones are OpenTelemetry's GenAI semantic conventions, still incubating: copied here, as the
// semantic-conventions package advises, rather than imported from its unstable entry point.
export const attr = {
  sessionId: "agentfold.session.id",
  turnId: "agentfold.turn.id",
  agentId: "agentfold.agent.id",
  agentVersionId: "agentfold.agent.version_id",
  step: "agentfold.step",
  /** A subagent's step: the `task` call it runs for. */
  parentCallId: "agentfold.parent_call.id",
  /** How a run of a turn ended: completed, failed, cancelled, handed_over, superseded, retried. */
  runOutcome: "agentfold.run.outcome",
  turnOutcome: "agentfold.turn.outcome",
  failureCode: "agentfold.failure.code",
  toolOutcome: "agentfold.tool.outcome",
  process: "agentfold.process",
  genAiOperation: "gen_ai.operation.name",
  genAiAgentName: "gen_ai.agent.name",
  genAiModel: "gen_ai.request.model",
  genAiInputTokens: "gen_ai.usage.input_tokens",
  genAiOutputTokens: "gen_ai.usage.output_tokens",
  genAiTokenType: "gen_ai.token.type",
  genAiToolName: "gen_ai.tool.name",
  genAiToolCallId: "gen_ai.tool.call.id",
} as const;
