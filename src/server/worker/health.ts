// Probes a worker endpoint's /health over HTTP/2 cleartext, the protocol Restate uses to reach it
// (fetch speaks only HTTP/1.1, which an h2c server does not answer).
import http2 from "node:http2";

export async function isWorkerHealthy(workerUrl: string, timeoutMs = 2_000): Promise<boolean> {
  return new Promise((resolve) => {
    let isSettled = false;
    const session = http2.connect(workerUrl);
    const finish = (isOk: boolean) => {
      if (isSettled) return;
      isSettled = true;
      clearTimeout(timer);
      session.close();
      session.destroy();
      resolve(isOk);
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    session.on("error", () => finish(false));
    const request = session.request({ ":path": "/health", ":method": "GET" });
    request.on("response", (headers) => {
      const status = Number(headers[":status"]);
      request.resume();
      finish(status >= 200 && status < 300);
    });
    request.on("error", () => finish(false));
    request.end();
  });
}
