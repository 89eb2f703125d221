// Fixed ports of servers e2e specs run beside the stack, which the stack is told about when it
// starts (global-setup.ts).
export const e2eOAuthMcpPort = 47621;
// The fake Slack global setup runs for the stack's SLACK_API_URL (e2e/ui/slack-setup.spec.ts).
export const e2eFakeSlackPort = 47622;
