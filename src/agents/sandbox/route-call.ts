// The platform's side of a channel route call (runRoute): the answer's head resolves as soon as
// the handler returned, its body is a stream fed by the sandbox's pieces and closed at their end,
// and `done` settles when the call does (after the handler's waitUntil work).
import type { RoutePart, RouteRequest } from "./protocol";
import type { CallOptions, Sandbox } from "./sandbox";

export type RouteCall = {
  status: number;
  headers: [string, string][];
  body: ReadableStream<Uint8Array>;
  /** The whole call, waitUntil work included. */
  done: Promise<void>;
};

export function callRoute(
  sandbox: Sandbox,
  request: RouteRequest,
  options: Omit<CallOptions, "onPartial">,
): Promise<RouteCall> {
  return new Promise((resolve, reject) => {
    let body: ReadableStreamDefaultController<Uint8Array> | undefined;
    let isOpen = false;
    const stream = new ReadableStream<Uint8Array>({ start: (controller) => void (body = controller) });
    const done = sandbox.call("runRoute", request, {
      ...options,
      onPartial: (result) => {
        const part = result as RoutePart;
        if ("head" in part) {
          isOpen = true;
          resolve({ ...part.head, body: stream, done: done.then(() => undefined) });
        } else if ("chunk" in part && isOpen) body?.enqueue(new Uint8Array(Buffer.from(part.chunk, "base64")));
        else if ("end" in part && isOpen) body?.close(), (isOpen = false);
      },
    });
    done.then(
      () => {
        if (isOpen) body?.close();
      },
      (error: unknown) => {
        if (isOpen) body?.error(error);
        reject(error);
      },
    );
    done.catch(() => undefined);
  });
}
