// `agentfold deploy` against an instance: the archive streamed to POST /v1/agents/:slug/versions
// (counted as it goes out), asking for the server's steps as NDJSON (docs/api.md); an instance
// that answers JSON only is read as well, without them.
import { z } from "zod";
import { uploadedVersionSchema } from "@/server/agents/schema";
import { AppError, errorBodySchema } from "@/server/errors";
import { parseNdjson } from "@/server/http/ndjson";
import type { Instance } from "./instance";
import { instanceClient, parseAnswer } from "./instance-client";

export type UploadedVersion = z.infer<typeof uploadedVersionSchema>["version"];
export type ServerStep = "received" | "validating" | "bundling" | "activating";

const lineSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("step"), step: z.enum(["received", "validating", "bundling", "activating"]) }),
  uploadedVersionSchema.extend({ type: z.literal("result") }),
  errorBodySchema.extend({ type: z.literal("error") }),
]);

const chunkBytes = 64 * 1024;

export async function uploadVersion(options: {
  instance: Instance;
  slug: string;
  team?: string;
  archive: Buffer;
  onSent: (bytes: number) => void;
  onStep: (step: ServerStep) => void;
}): Promise<UploadedVersion> {
  const { instance, slug, archive, onSent, onStep } = options;
  const query = options.team ? `?team=${encodeURIComponent(options.team)}` : "";
  const path = `/v1/agents/${encodeURIComponent(slug)}/versions${query}`;
  let sent = 0;
  // Each chunk is handed over when fetch asks for it: the count follows the socket, within a chunk.
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= archive.byteLength) return controller.close();
      const chunk = archive.subarray(sent, sent + chunkBytes);
      controller.enqueue(chunk);
      sent += chunk.byteLength;
      onSent(sent);
    },
  });
  const response = await instanceClient(instance).send("POST", path, {
    body,
    type: "application/gzip",
    accept: "application/x-ndjson, application/json",
  });
  const what = `POST ${instance.url}${path}`;
  if (!(response.headers.get("content-type") ?? "").includes("application/x-ndjson") || !response.body)
    return (await parseAnswer(response, uploadedVersionSchema, what)).version;
  for await (const value of parseNdjson(response.body)) {
    const line = lineSchema.safeParse(value);
    if (!line.success) throw new AppError("internal_error", `${what}: unexpected line: ${JSON.stringify(value)}`);
    if (line.data.type === "step") onStep(line.data.step);
    else if (line.data.type === "result") return line.data.version;
    else throw AppError.fromBody(line.data);
  }
  throw new AppError(
    "unavailable",
    `${what}: the answer ended before the result; look for the version on the dashboard`,
  );
}
