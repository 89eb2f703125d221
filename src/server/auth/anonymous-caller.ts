// allowAll (docs/api.md, "Authentication"), as an explicit per-agent opt-in: a caller without
// credentials may use that agent's session API. Every such caller is the same anonymous principal,
// so they can see each other's sessions: for demos only, never the default.
import type { TokenAction } from "@/server/tokens/scopes";
import type { Caller } from "./principal";

const anonymousActions: TokenAction[] = ["sessions:read", "sessions:write", "agents:read"];

export function anonymousCaller(agent: { slug: string }): Caller {
  return {
    principal: { kind: "anonymous", id: "anonymous" },
    can: (action, slug) => slug === agent.slug && anonymousActions.includes(action),
  };
}
