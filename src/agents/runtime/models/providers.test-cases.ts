// How one conversation looks on each provider's wire: the requests the SDK must send and the usage
// it must report, for providers.test.ts. A fact about a provider's API lives here, once.
import type { ProviderMetadata } from "ai";
import type { FakeProvider, FakeUsage, JsonBody } from "@/testing/provider-fakes";
import type { ModelProviderSettings } from "./resolve-model";

export const weatherSchema = {
  type: "object",
  properties: { city: { type: "string" }, unit: { type: "string", enum: ["celsius", "fahrenheit"] } },
  required: ["city"],
  additionalProperties: false,
} as const;

export const question = "What is the weather in Oslo?";
export const weatherInput = { city: "Oslo", unit: "celsius" };
export const weatherResult = { temperature: 21 };

export type ProviderCase = {
  provider: FakeProvider;
  modelId: string;
  settings: (baseUrl: string) => ModelProviderSettings;
  /** The first request of a plain `system` + `prompt` call. */
  textRequest: { path: string; headers: Record<string, string | undefined>; body: JsonBody };
  toolCallId: string;
  /** The weather tool as the request declares it. */
  toolDeclaration: JsonBody;
  /** The conversation part of a request body. */
  conversation: (body: JsonBody) => unknown;
  /** The follow-up's conversation: the question, the call, and its result. */
  toolExchange: JsonBody[];
  reasoningOptions: ProviderMetadata;
  reasoningRequest: JsonBody;
  usage: FakeUsage;
  expectedUsage: JsonBody;
  /** The usage object as the provider sent it. */
  rawUsage: JsonBody;
};

export const cases: ProviderCase[] = [
  {
    provider: "openai",
    modelId: "openai:gpt-5",
    settings: (baseUrl) => ({ openaiApiKey: "sk-test-openai", openaiBaseUrl: baseUrl }),
    textRequest: {
      path: "/v1/responses",
      headers: { authorization: "Bearer sk-test-openai" },
      body: {
        model: "gpt-5",
        stream: true,
        // gpt-5 is a reasoning model: the SDK sends the system prompt in the developer role.
        input: [
          { role: "developer", content: "Be brief." },
          { role: "user", content: [{ type: "input_text", text: "Say hello" }] },
        ],
      },
    },
    toolCallId: "call_Wx7kq2",
    toolDeclaration: {
      type: "function",
      name: "get_weather",
      description: "Current weather in a city",
      parameters: weatherSchema,
    },
    conversation: (body) => body.input,
    toolExchange: [
      { role: "user", content: [{ type: "input_text", text: question }] },
      { type: "function_call", call_id: "call_Wx7kq2", name: "get_weather", arguments: JSON.stringify(weatherInput) },
      { type: "function_call_output", call_id: "call_Wx7kq2", output: JSON.stringify(weatherResult) },
    ],
    reasoningOptions: { openai: { reasoningSummary: "auto" } },
    reasoningRequest: { reasoning: { summary: "auto" } },
    usage: { inputTokens: 1200, cacheReadTokens: 1000, outputTokens: 300, reasoningTokens: 200 },
    expectedUsage: {
      inputTokens: 1200,
      inputTokenDetails: { noCacheTokens: 200, cacheReadTokens: 1000, cacheWriteTokens: undefined },
      outputTokens: 300,
      outputTokenDetails: { textTokens: 100, reasoningTokens: 200 },
      totalTokens: 1500,
    },
    rawUsage: {
      input_tokens: 1200,
      input_tokens_details: { cached_tokens: 1000 },
      output_tokens: 300,
      output_tokens_details: { reasoning_tokens: 200 },
      total_tokens: 1500,
    },
  },
  {
    provider: "anthropic",
    modelId: "anthropic:claude-sonnet-4-5",
    settings: (baseUrl) => ({ anthropicApiKey: "sk-ant-test", anthropicBaseUrl: baseUrl }),
    textRequest: {
      path: "/v1/messages",
      headers: { "x-api-key": "sk-ant-test", "anthropic-version": "2023-06-01", authorization: undefined },
      body: {
        model: "claude-sonnet-4-5",
        stream: true,
        system: [{ type: "text", text: "Be brief." }],
        messages: [{ role: "user", content: [{ type: "text", text: "Say hello" }] }],
      },
    },
    toolCallId: "toolu_01A09q90qw90lq917835lq9",
    toolDeclaration: { name: "get_weather", description: "Current weather in a city", input_schema: weatherSchema },
    conversation: (body) => body.messages,
    toolExchange: [
      { role: "user", content: [{ type: "text", text: question }] },
      {
        role: "assistant",
        content: [{ type: "tool_use", id: "toolu_01A09q90qw90lq917835lq9", name: "get_weather", input: weatherInput }],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_01A09q90qw90lq917835lq9", content: JSON.stringify(weatherResult) },
        ],
      },
    ],
    reasoningOptions: { anthropic: { thinking: { type: "enabled", budgetTokens: 1024 } } },
    reasoningRequest: { thinking: { type: "enabled", budget_tokens: 1024 } },
    usage: { inputTokens: 1200, cacheReadTokens: 1000, cacheWriteTokens: 150, outputTokens: 300, reasoningTokens: 200 },
    expectedUsage: {
      inputTokens: 1200,
      inputTokenDetails: { noCacheTokens: 50, cacheReadTokens: 1000, cacheWriteTokens: 150 },
      outputTokens: 300,
      outputTokenDetails: { textTokens: 100, reasoningTokens: 200 },
      totalTokens: 1500,
    },
    // Anthropic's input_tokens leaves out what was read from or written to the cache.
    rawUsage: {
      input_tokens: 50,
      cache_read_input_tokens: 1000,
      cache_creation_input_tokens: 150,
      output_tokens: 300,
      output_tokens_details: { thinking_tokens: 200 },
    },
  },
  {
    provider: "openai-compatible",
    modelId: "openai-compatible:qwen2.5:7b",
    settings: (baseUrl) => ({ openaiCompatibleBaseUrl: baseUrl }),
    textRequest: {
      path: "/v1/chat/completions",
      headers: { authorization: undefined },
      body: {
        model: "qwen2.5:7b",
        stream: true,
        // Without this, OpenAI-style servers stream no usage at all.
        stream_options: { include_usage: true },
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "Say hello" },
        ],
      },
    },
    toolCallId: "call_8fj2k",
    toolDeclaration: {
      type: "function",
      function: { name: "get_weather", description: "Current weather in a city", parameters: weatherSchema },
    },
    conversation: (body) => body.messages,
    toolExchange: [
      { role: "user", content: question },
      {
        role: "assistant",
        tool_calls: [
          {
            id: "call_8fj2k",
            type: "function",
            function: { name: "get_weather", arguments: JSON.stringify(weatherInput) },
          },
        ],
      },
      { role: "tool", tool_call_id: "call_8fj2k", content: JSON.stringify(weatherResult) },
    ],
    reasoningOptions: {},
    reasoningRequest: {},
    usage: { inputTokens: 1200, cacheReadTokens: 1000, outputTokens: 300, reasoningTokens: 200 },
    expectedUsage: {
      inputTokens: 1200,
      inputTokenDetails: { noCacheTokens: 200, cacheReadTokens: 1000, cacheWriteTokens: undefined },
      outputTokens: 300,
      outputTokenDetails: { textTokens: 100, reasoningTokens: 200 },
      totalTokens: 1500,
    },
    rawUsage: {
      prompt_tokens: 1200,
      completion_tokens: 300,
      total_tokens: 1500,
      prompt_tokens_details: { cached_tokens: 1000 },
      completion_tokens_details: { reasoning_tokens: 200 },
    },
  },
];
