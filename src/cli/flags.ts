// Flags that several commands take, spelled once.
export const folderArg = { name: "dir", description: "The agent folder (same as --dir)" };

export const dirFlag = {
  type: "string",
  value: "<dir>",
  description: "The agent folder (default: the current one)",
} as const;

export const jsonFlag = { type: "boolean", description: "Print JSON on stdout, for scripts" } as const;

export const urlFlag = {
  type: "string",
  value: "<instance>",
  description: "The Agentfold instance (or AGENTFOLD_URL, or the one `agentfold login` saved)",
} as const;

export const tokenFlag = {
  type: "string",
  value: "<token>",
  description: "A bearer token for it (or AGENTFOLD_TOKEN, or the one `agentfold login` saved)",
} as const;

export const agentSlugFlag = {
  type: "string",
  value: "<agent>",
  description: "The agent's slug (default: the folder's name)",
} as const;

export const teamSlugFlag = {
  type: "string",
  value: "<slug>",
  description: "The team, when the agent's slug is in several",
} as const;
