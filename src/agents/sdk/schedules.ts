// `agentfold/schedules`: defineSchedule (docs/schedules.md, "What fires"). A schedule is a cron
// expression plus either a Markdown prompt (each firing starts a task session) or a `run` handler.
import { z } from "zod";
import type { ChannelDescriptor } from "./channels";
import { cronProblem } from "./cron";
import type { Descriptor } from "./descriptor";
import type { HostServices } from "./host";
import type { ToolExecuteResult } from "./tool-result";
import type { ArtifactsApi, Principal } from "./types";
import { define, functionSchema, nonEmptyString } from "./validation";

export { cronProblem, nextCronRun } from "./cron";

export type ScheduleRunContext = {
  /** Hand work into a channel so its delivery `events` fire. `target` is channel-specific, e.g.
   * Slack `{ channelId, threadTs }`. */
  receive(
    channel: ChannelDescriptor | string,
    input: { message: string; auth: Principal; target?: Record<string, unknown> },
  ): Promise<void>;
  /** [inferred] A direct server-tool call; resolves to the tool's result envelope. */
  callTool(name: string, input?: unknown): Promise<ToolExecuteResult>;
  waitUntil(promise: Promise<unknown>): void;
  /** A principal scoped to the schedule, for work the agent does on its own behalf. */
  appAuth: Principal;
  host: HostServices;
  artifacts: ArtifactsApi;
};

export type ScheduleRun = (ctx: ScheduleRunContext) => void | Promise<void>;

/** Cron plus exactly one of `markdown` (the prompt of each firing's task session) or `run`. */
export type ScheduleConfig =
  | { cron: string; markdown: string; run?: undefined; timezone?: "UTC" }
  | { cron: string; run: ScheduleRun; markdown?: undefined; timezone?: "UTC" };

export type ScheduleDescriptor = Descriptor<"schedule", ScheduleConfig & { timezone: "UTC" }>;

const scheduleConfigSchema = z
  .strictObject({
    cron: z.string().superRefine((expression, ctx) => {
      const problem = cronProblem(expression);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
    markdown: nonEmptyString.optional(),
    run: functionSchema.optional(),
    // Accepted only to say so: a schedule written for another zone would silently fire off-hours.
    timezone: z.literal("UTC", { error: "schedules run in UTC; write the cron expression in UTC" }).default("UTC"),
  })
  .superRefine((config, ctx) => {
    const given = [config.markdown, config.run].filter((value) => value !== undefined).length;
    if (given === 1) return;
    ctx.addIssue({
      code: "custom",
      path: [],
      message: `give exactly one of markdown or run (got ${given === 0 ? "neither" : "both"})`,
    });
  });

export function defineSchedule(config: ScheduleConfig): ScheduleDescriptor {
  return define("schedule", "defineSchedule", scheduleConfigSchema, config);
}
