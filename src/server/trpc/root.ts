// The dashboard's tRPC API: one router per domain.
import { agentsRouter } from "@/server/agents/router";
import { approvalsRouter } from "@/server/approvals/router";
import { authRouter } from "@/server/auth/router";
import { cliLoginRouter } from "@/server/cli-login/router";
import { hostStateRouter } from "@/server/host-state/router";
import { secretsRouter } from "@/server/secrets/router";
import { sessionsRouter } from "@/server/sessions/router";
import { slackRouter } from "@/server/slack/router";
import { teamsRouter } from "@/server/teams/router";
import { tokensRouter } from "@/server/tokens/router";
import { router } from "./init";

export const appRouter = router({
  auth: authRouter,
  teams: teamsRouter,
  agents: agentsRouter,
  tokens: tokensRouter,
  sessions: sessionsRouter,
  approvals: approvalsRouter,
  secrets: secretsRouter,
  slack: slackRouter,
  // Keyed by its folder: procedures.test.ts finds each domain's schema.ts by the key.
  "host-state": hostStateRouter,
  "cli-login": cliLoginRouter,
});

export type AppRouter = typeof appRouter;
