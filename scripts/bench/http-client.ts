// The turn benchmark's HTTP client: node:http on kept-alive sockets. It shares the machine with
// the stack it measures, so it must cost little: the fetch it replaces (undici, web streams, a
// decoding TransformStream) spent ~6 ms of CPU per turn on two cores, about a fifth of the
// whole turn's, which the servers then lacked under load.
import http from "node:http";

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** POSTs JSON; answers the status and the body's text. */
export function postJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; text: string }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: "POST",
        agent,
        headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(payload) },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(payload);
  });
}

/**
 * GETs a stream and reads it until `isDone` says the text so far is enough, then drops the
 * connection (an NDJSON stream never ends by itself). Answers that text.
 */
export function readUntil(
  url: string,
  headers: Record<string, string>,
  isDone: (text: string) => boolean,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, headers }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        return reject(new Error(`GET ${url}: ${response.statusCode}`));
      }
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        text += chunk;
        if (!isDone(text)) return;
        request.destroy();
        resolve(text);
      });
      response.on("end", () => reject(new Error(`stream ${url} ended before it was done`)));
      response.on("error", () => undefined);
    });
    request.on("error", reject);
  });
}
