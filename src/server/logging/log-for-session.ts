// A platform line about a session's turn (a failed attempt, a failed turn), in its agent's logs
// beside what the agent's code printed. Best effort: a line that cannot be placed is left to the
// process's own log, which has it already.
import type { PrismaClient } from "@prisma/client";
import type { AgentLogWriter, LogLevel } from "./agent-logs";

export async function logForSession(
  deps: { db: PrismaClient; logs?: AgentLogWriter },
  turn: { sessionId: string; turnId: string },
  level: LogLevel,
  message: string,
): Promise<void> {
  if (!deps.logs) return;
  const session = await deps.db.session
    .findUnique({ where: { id: turn.sessionId }, select: { agentId: true } })
    .catch(() => null);
  if (!session) return;
  deps.logs.write({
    agentId: session.agentId,
    level,
    source: "platform",
    sessionId: turn.sessionId,
    turnId: turn.turnId,
    message,
  });
}
