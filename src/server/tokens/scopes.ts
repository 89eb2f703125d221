// What a bearer token may do. A token names the actions it has; "*" grants every one.
export const tokenActions = [
  "sessions:read", // list, inspect, stream and dump sessions
  "sessions:write", // start, follow up, stop and delete sessions
  "approvals:write", // approve or deny parked tool calls
  "tools:call", // call an agent's tools directly, with no model turn
  "agents:read", // see agents and their surface
  "agents:deploy", // upload versions and switch the active one
  "channels:invoke", // call the agent's channel routes (/<slug>/v1/channels/<id>/…)
  "artifacts:read", // list, read and download the agent's artifacts
  "evals:run", // run the agent's evals and read their runs
  "tokens:write", // create tokens within its own scopes (POST /v1/tokens; `agentfold token create`)
] as const;

export type TokenAction = (typeof tokenActions)[number];

export function isTokenAction(value: string): value is TokenAction {
  return (tokenActions as readonly string[]).includes(value);
}

export function grants(actions: string[], action: TokenAction): boolean {
  return actions.includes("*") || actions.includes(action);
}
