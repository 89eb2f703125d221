// `agentfold/channels`: defineChannel (docs/agent-folders.md, "The `define*` helpers"), the route
// builders and the auth helpers. A channel links an outside surface to sessions: routes under
// /v1/channels/<id>/…, optional per-session state, and `events` handlers that deliver replies back
// to the surface.
import { z } from "zod";
import { isAuthPolicy, type AuthPolicy } from "./channel-auth";
import { routeMethods, type ChannelRoute } from "./channel-routes";
import type { GitHubChannelDescriptor } from "./channels/github";
import type { SlackChannelDescriptor } from "./channels/slack";
import type { Descriptor } from "./descriptor";
import { eventHandlersSchema, type EventHandlers } from "./hooks";
import type { HostServices } from "./host";
import type { ArtifactsApi, JsonObject, SessionMode, SessionPurpose } from "./types";
import { define, functionSchema, zodSchemaSchema } from "./validation";

export { allowAll, bearerAuth, localDevStrict, type AuthPolicy } from "./channel-auth";
export {
  buildToolApprovalEvents,
  type ToolApprovalHandlers,
  type ToolApprovalRequest,
  type ToolApprovalResolution,
} from "./tool-approvals";
export {
  DELETE,
  GET,
  PATCH,
  POST,
  PUT,
  type ChannelRoute,
  type RouteContext,
  type RouteMethod,
} from "./channel-routes";

/** The second argument of a channel's `events` handlers. Handlers run before hooks, one at a
 * time per session. */
export type ChannelEventContext<State> = {
  /** [inferred] Mutations made by a handler are saved when it returns. */
  state: State;
  setContinuationToken(token: string): void;
  session: { id: string; channelId: string; mode: SessionMode; purpose: SessionPurpose; title?: string };
  host: HostServices;
  artifacts: ArtifactsApi;
};

/** [inferred] Runs once when the channel is mounted. */
export type ChannelStartContext = { host: HostServices; artifacts: ArtifactsApi };

export type ChannelConfig<State extends JsonObject = JsonObject> = {
  /** Replaces the agent's auth chain for this channel's routes. */
  auth?: AuthPolicy[];
  /** Initial per-session channel state. */
  state?: State;
  routes?: ChannelRoute[];
  events?: EventHandlers<ChannelEventContext<State>>;
  onStart?: (ctx: ChannelStartContext) => void | Promise<void>;
};

export type CustomChannelDescriptor<State extends JsonObject = JsonObject> = Descriptor<
  "channel",
  Omit<ChannelConfig<State>, "routes" | "state"> & { pack: "custom"; routes: ChannelRoute[]; state: State }
>;

export type ChannelDescriptor = CustomChannelDescriptor | SlackChannelDescriptor | GitHubChannelDescriptor;

const segment = /^(?::[A-Za-z_]\w*|[A-Za-z0-9._~-]+)$/;

function pathProblem(path: string): string | undefined {
  if (!path.startsWith("/")) return 'must start with "/"';
  const segments = path.split("/").slice(1);
  if (path !== "/" && segments.some((part) => !segment.test(part))) {
    return "segments must be letters, digits, ._~- or :param";
  }
  const params = segments.filter((part) => part.startsWith(":"));
  return new Set(params).size === params.length ? undefined : "repeats a path parameter";
}

const routeSchema = z
  .strictObject({
    method: z.enum(routeMethods),
    path: z.string().superRefine((path, ctx) => {
      const problem = pathProblem(path);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
    description: z.string().optional(),
    bodySchema: zodSchemaSchema.optional(),
    querySchema: zodSchemaSchema.optional(),
    handler: functionSchema,
  })
  .superRefine((route, ctx) => {
    if ((route.method === "GET" || route.method === "DELETE") && route.bodySchema !== undefined) {
      const message = `${route.method} routes take no body; use querySchema`;
      ctx.addIssue({ code: "custom", path: ["bodySchema"], message });
    }
  });

const routesSchema = z.array(routeSchema).superRefine((routes, ctx) => {
  const seen = new Set<string>();
  routes.forEach((route, index) => {
    // "/a/:id" and "/a/:name" match the same requests.
    const key = `${route.method} ${route.path.replace(/:[A-Za-z_]\w*/g, ":")}`;
    if (seen.has(key)) {
      const message = `duplicate route ${route.method} ${route.path}`;
      ctx.addIssue({ code: "custom", path: [index, "path"], message });
    }
    seen.add(key);
  });
});

const authPolicySchema = z.custom<AuthPolicy>(isAuthPolicy, {
  error: "expected localDevStrict(), bearerAuth(token) or allowAll()",
});

const channelConfigSchema = z
  .strictObject({
    auth: z.array(authPolicySchema).min(1, "give at least one policy, or leave auth out to use the agent's").optional(),
    state: z.record(z.string(), z.json(), { error: "expected a JSON object" }).default({}),
    routes: routesSchema.default([]),
    events: eventHandlersSchema.optional(),
    onStart: functionSchema.optional(),
  })
  .transform((config) => ({ ...config, pack: "custom" as const }));

export function defineChannel<State extends JsonObject = JsonObject>(
  config: ChannelConfig<State>,
): CustomChannelDescriptor<State> {
  return define("channel", "defineChannel", channelConfigSchema, config);
}
