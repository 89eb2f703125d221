// Schedule cron expressions (docs/schedules.md, "What fires"): standard 5 fields, minute
// granularity, always UTC. The validator and the scheduler both go through here, so what validates
// is exactly what fires.
import { Cron } from "croner";

const nicknames = /^@(yearly|annually|monthly|weekly|daily|midnight|hourly)$/i;

function parse(expression: string): Cron {
  // Paused and without a callback: croner sets no timer, this only parses.
  return new Cron(expression.trim(), { paused: true, timezone: "UTC", mode: "5-part" });
}

/** Why an expression cannot be a schedule, or undefined when it can. */
export function cronProblem(expression: string): string | undefined {
  const trimmed = expression.trim();
  const fields = trimmed.split(/\s+/).filter(Boolean).length;
  if (!nicknames.test(trimmed) && fields !== 5) {
    return `expected 5 fields (minute hour day-of-month month day-of-week), got ${fields}`;
  }
  let cron: Cron;
  try {
    cron = parse(trimmed);
  } catch (error) {
    return (error as Error).message.replace(/^CronPattern:\s*/, "");
  }
  // A fixed reference keeps the check deterministic; 5-field patterns repeat every few years.
  const next = cron.nextRun(new Date(Date.UTC(2000, 0, 1)));
  cron.stop();
  return next ? undefined : "never matches a date";
}

/** The first firing strictly after `after`, in UTC; undefined if the expression never fires. */
export function nextCronRun(expression: string, after: Date): Date | undefined {
  const cron = parse(expression);
  const next = cron.nextRun(after) ?? undefined;
  cron.stop();
  return next;
}
