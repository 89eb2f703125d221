// Fixed ports of servers e2e specs run beside the stack, which the stack is told about when it
// starts (global-setup.ts).
export const e2eOAuthMcpPort = 47621;
