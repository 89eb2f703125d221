// An agent's channel routes as the playground offers them: every route for /help and the Try
// modal, the ones without path parameters as slash commands. Read from /info's manifest, whose
// `config` carries each route's body and query schemas as JSON Schema (the sandbox's summary).
import type { AgentManifest } from "@/agents/loader/manifest";

export type JsonSchema = Record<string, unknown>;

export type ChannelRoute = {
  /** `<channel> <METHOD> <path>`: unique within an agent, and the key of a remembered body. */
  key: string;
  channel: string;
  method: string;
  path: string;
  description?: string;
  bodySchema?: JsonSchema;
  querySchema?: JsonSchema;
  /** `:name` segments of the path, in order; a route with any is not a slash command. */
  params: string[];
};

type Channel = AgentManifest["channels"][number];
type RouteConfig = { method?: unknown; path?: unknown; bodySchema?: unknown; querySchema?: unknown };

// Packs' ingress routes (Slack, GitHub events) are for those services, not for a person to call.
const isCustom = (channel: Channel) => {
  const pack = (channel.config as { pack?: unknown } | null)?.pack;
  return pack === undefined || pack === "custom";
};

const asSchema = (value: unknown) =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonSchema) : undefined;

export function channelRoutes(channels: Channel[] | undefined): ChannelRoute[] {
  return (channels ?? []).filter(isCustom).flatMap((channel) => {
    const configs = ((channel.config as { routes?: unknown } | null)?.routes ?? []) as RouteConfig[];
    return channel.routes.map((route) => {
      const config = Array.isArray(configs)
        ? configs.find((c) => c?.method === route.method && c?.path === route.path)
        : undefined;
      return {
        key: `${channel.name} ${route.method} ${route.path}`,
        channel: channel.name,
        method: route.method,
        path: route.path,
        description: route.description,
        bodySchema: asSchema(config?.bodySchema),
        querySchema: asSchema(config?.querySchema),
        params: route.path
          .split("/")
          .filter((segment) => segment.startsWith(":"))
          .map((segment) => segment.slice(1)),
      };
    });
  });
}

export type SlashItem = { kind: "help" } | { kind: "route"; route: ChannelRoute };

export const slashLabel = (item: SlashItem) => (item.kind === "help" ? "/help" : `/${item.route.key}`);

/** The autocomplete list for the composer's text: `/help` first, then the matching commands. */
export function slashMatches(text: string, routes: ChannelRoute[]): SlashItem[] {
  if (!text.startsWith("/") || text.includes("\n")) return [];
  const words = text.slice(1).toLowerCase().split(/\s+/).filter(Boolean);
  const items: SlashItem[] = [
    { kind: "help" },
    ...routes.filter((route) => route.params.length === 0).map((route) => ({ kind: "route" as const, route })),
  ];
  return items.filter((item) => {
    const label = slashLabel(item).slice(1).toLowerCase();
    return words.every((word) => label.includes(word));
  });
}
