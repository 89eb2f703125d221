// A line of a session's NDJSON stream (docs/api.md, "Streams"): an event, or a heartbeat or error line.
import { z } from "zod";
import { sessionEventSchema } from "@/agents/sdk/events";
import { streamControlLineSchema } from "@/agents/sdk/stream-lines";

export const streamLineSchema = z.union([sessionEventSchema, streamControlLineSchema]);
