// The A2A agent card (v0.3 field names): who the agent is, where its JSON-RPC endpoint is, and how
// to authenticate. Name and description come from bot/agent.ts, so the two cannot drift apart.
import agent from "../agent";
import { protocolVersion } from "./a2a";

const cardPath = /\/\.well-known\/agent-card\.json$/;

/** The channel's base URL, where JSON-RPC is served: the card's own URL less the well-known path, on
 * the host and scheme the caller used (a proxy's X-Forwarded-Host/-Proto, else Host). Next puts its
 * own name in the request URL, which a caller on another machine could not reach. */
export function rpcUrlOf(request: Request): string {
  const url = new URL(request.url);
  const header = (name: string) => request.headers.get(name)?.split(",")[0]?.trim() || undefined;
  const host = header("x-forwarded-host") ?? header("host");
  const proto = header("x-forwarded-proto");
  if (host) url.host = host;
  if (proto === "http" || proto === "https") url.protocol = `${proto}:`;
  url.pathname = url.pathname.replace(cardPath, "");
  url.search = "";
  return url.toString();
}

export function agentCard(rpcUrl: string) {
  return {
    protocolVersion,
    name: agent.name ?? "A2A agent",
    description: agent.description ?? "",
    url: rpcUrl,
    preferredTransport: "JSONRPC",
    version: "1.0.0",
    capabilities: { streaming: false, pushNotifications: false, stateTransitionHistory: false },
    securitySchemes: {
      bearer: {
        type: "http",
        scheme: "bearer",
        description: "The agent's A2A_TOKEN secret, or an Agentfold token with channels:invoke on this agent",
      },
    },
    security: [{ bearer: [] }],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [
      {
        id: "conversation",
        name: "Conversation",
        description: "Answers a request in plain text; messages with the same contextId continue one conversation.",
        tags: ["chat", "question-answering"],
        examples: ["Summarise the points of the previous message in one sentence."],
      },
    ],
  };
}
