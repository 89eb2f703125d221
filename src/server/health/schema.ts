// The answer of GET /v1/health (docs/api.md), 200 or 503 alike.
import { z } from "zod";

const partSchema = z.enum(["up", "down"]);
const componentSchema = z.object({ ok: z.boolean(), latencyMs: z.number(), error: z.string().optional() });

export const healthSchema = z.object({
  ok: z.boolean(),
  parts: z.object({ database: partSchema, engine: partSchema, worker: partSchema }),
  components: z.object({ db: componentSchema, restate: componentSchema, worker: componentSchema }),
});
