// The upload route's NDJSON answer, for a client that asks with `Accept: application/x-ndjson`
// (`agentfold deploy`): a line as each server step starts, then the result. The stream starts at
// the first step after the body is in, so a refusal before it (401, 403, 409, 413, 422 …) keeps
// its status; after that, a failure is the last line (`{ type: "error", … }`), never a status.
import type { AgentVersionSummary } from "@/server/agents/schema";
import { toAppError } from "./to-app-error";
import { ndjsonHeaders, ndjsonLine } from "./ndjson";

export type UploadStep = "received" | "validating" | "bundling" | "activating";

export function wantsUploadProgress(request: Request): boolean {
  return (request.headers.get("accept") ?? "").includes("application/x-ndjson");
}

export function uploadProgressResponse(
  upload: (onStep: (step: UploadStep) => void) => Promise<AgentVersionSummary>,
): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    let isStarted = false;
    const start = () => {
      if (isStarted) return;
      isStarted = true;
      resolve(new Response(body, { headers: ndjsonHeaders }));
    };
    const send = (line: object) => {
      try {
        controller.enqueue(ndjsonLine({ ...line, at: new Date().toISOString() }));
      } catch {
        // The client left: the upload still finishes, as it would for a JSON answer.
      }
    };
    const end = () => {
      try {
        controller.close();
      } catch {}
    };
    upload((step) => {
      if (step !== "received") start();
      send({ type: "step", step });
    }).then(
      (version) => {
        start();
        send({ type: "result", ok: true, version });
        end();
      },
      (error: unknown) => {
        if (!isStarted) return reject(error);
        send({ type: "error", ...toAppError(error).toBody() });
        end();
      },
    );
  });
}
