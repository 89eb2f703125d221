// The lines of a session's event stream that are not events (docs/api.md, "Streams"): written by
// the server (src/server/events/stream-session.ts) between event lines, read by every client. A
// line is an event when sessionEventSchema (./events.ts) parses it, a control line when this does.
import { z } from "zod";

export const heartbeatLineSchema = z.strictObject({
  type: z.literal("heartbeat"),
  at: z.iso.datetime({ offset: true }),
});

/** The stream's last line: `error` is `slow_reader`, `stream_failed` or an AppError code (a revoked
 * token: `unauthorized`); reconnect with startIndex = nextIndex. */
export const errorLineSchema = z.strictObject({
  type: z.literal("error"),
  error: z.string().min(1),
  message: z.string().optional(),
  nextIndex: z.number().int().nonnegative(),
});

export const streamControlLineSchema = z.discriminatedUnion("type", [heartbeatLineSchema, errorLineSchema]);

export type HeartbeatLine = z.infer<typeof heartbeatLineSchema>;
export type ErrorLine = z.infer<typeof errorLineSchema>;
export type StreamControlLine = z.infer<typeof streamControlLineSchema>;
