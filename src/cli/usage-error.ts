// A command line the CLI cannot act on: `agentfold` prints the message and the usage, and exits 2.
export class UsageError extends Error {}
