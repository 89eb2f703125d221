// DurableRuntime on Restate: admin API for registration and health.
import http from "node:http";
import https from "node:https";
import type { DurableRuntime } from "./runtime";

// Every turn is sent through the ingress: over kept-alive node:http connections, which cost a
// fraction of fetch's CPU per request (the web process's largest cost after Next itself).
const agents = { "http:": new http.Agent({ keepAlive: true }), "https:": new https.Agent({ keepAlive: true }) };

function postJson(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<{ status: number; text: string }> {
  const target = new URL(url);
  const client = target.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      target,
      {
        method: "POST",
        agent: agents[target.protocol as keyof typeof agents],
        headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)), ...headers },
        timeout: timeoutMs,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
        );
        response.on("error", reject);
      },
    );
    request.on("timeout", () => request.destroy(new Error(`no answer from ${target.origin} within ${timeoutMs} ms`)));
    request.on("error", reject);
    request.end(body);
  });
}

export type RestateRuntimeOptions = {
  ingressUrl: string;
  adminUrl: string;
  fetch?: typeof fetch;
};

export function createRestateRuntime({
  ingressUrl,
  adminUrl,
  fetch: fetchImpl = fetch,
}: RestateRuntimeOptions): DurableRuntime {
  async function register(workerUrl: string, force: boolean): Promise<Response> {
    return fetchImpl(`${adminUrl}/deployments`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ uri: workerUrl, force }),
      signal: AbortSignal.timeout(30_000),
    });
  }

  return {
    async isHealthy() {
      try {
        const response = await fetchImpl(`${adminUrl}/health`, { signal: AbortSignal.timeout(2_000) });
        await response.body?.cancel();
        return response.ok;
      } catch {
        return false;
      }
    },
    async registerWorker(workerUrl) {
      let response = await register(workerUrl, false);
      // 409: the same URI was registered with other service definitions (a new Agentfold version
      // on the same port). Replace it; the worker at that URI now serves the new definitions.
      if (response.status === 409) {
        await response.body?.cancel();
        response = await register(workerUrl, true);
      }
      if (!response.ok) {
        const detail = await response.text();
        throw new Error(`Restate refused to register the worker at ${workerUrl}: ${response.status} ${detail}`);
      }
      await response.body?.cancel();
    },
    async sendTurn(turn) {
      // Idempotency key = turn id: a retried request cannot queue the same turn twice.
      const url = `${ingressUrl}/session/${encodeURIComponent(turn.sessionId)}/runTurn/send`;
      const { status, text } = await postJson(url, { "idempotency-key": turn.turnId }, JSON.stringify(turn), 10_000);
      if (status < 200 || status > 299) throw new Error(`Restate did not accept the turn: ${status} ${text}`);
      const { invocationId } = JSON.parse(text) as { invocationId: string };
      return { invocationId };
    },
    async cancel(invocationId) {
      const response = await fetchImpl(`${adminUrl}/invocations/${encodeURIComponent(invocationId)}/cancel`, {
        method: "PATCH",
        signal: AbortSignal.timeout(10_000),
      });
      // 404: the invocation already finished; there is nothing left to stop.
      if (!response.ok && response.status !== 404)
        throw new Error(`Restate could not cancel ${invocationId}: ${response.status}`);
      await response.body?.cancel();
      // An invocation waiting out a retry's backoff (or paused) would meet its cancellation only at
      // its next attempt: resumed, it runs now and records the stop (docs/turns.md, "Failures").
      // Refused for one that is running or done, which is fine.
      if (response.status === 202) {
        await fetchImpl(`${adminUrl}/invocations/${encodeURIComponent(invocationId)}/resume`, {
          method: "PATCH",
          signal: AbortSignal.timeout(10_000),
        })
          .then((resumed) => resumed.body?.cancel())
          .catch(() => undefined);
      }
      // 200: done at once — it was still queued and never ran (or had ended); 202: the running
      // handler is told and records its own end.
      return response.status === 404 ? "gone" : response.status === 200 ? "done" : "signalled";
    },
    async startScheduler(agentId) {
      const response = await fetchImpl(`${ingressUrl}/scheduler/${encodeURIComponent(agentId)}/start/send`, {
        method: "POST",
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok)
        throw new Error(`Restate did not accept the scheduler start: ${response.status} ${await response.text()}`);
      await response.body?.cancel();
    },
    async fireSchedule(agentId, name) {
      const response = await fetchImpl(`${ingressUrl}/scheduler/${encodeURIComponent(agentId)}/fire`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name }),
        signal: AbortSignal.timeout(30_000),
      });
      if (!response.ok)
        throw new Error(`the worker could not fire ${name}: ${response.status} ${await response.text()}`);
      return (await response.json()) as Awaited<ReturnType<DurableRuntime["fireSchedule"]>>;
    },
    async scheduleReminder(reminderId, delayMs) {
      const response = await fetchImpl(
        `${ingressUrl}/reminders/${encodeURIComponent(reminderId)}/fire/send?delay=${Math.round(delayMs)}ms`,
        {
          method: "POST",
          signal: AbortSignal.timeout(10_000),
        },
      );
      if (!response.ok)
        throw new Error(`Restate did not accept the reminder: ${response.status} ${await response.text()}`);
      await response.body?.cancel();
    },
    async callTool(request) {
      const response = await fetchImpl(`${ingressUrl}/tools/call`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(request),
        // A tool's own limit is at most 15 minutes (sandbox limits, docs/decisions.md).
        signal: AbortSignal.timeout(16 * 60_000),
      });
      if (!response.ok)
        throw new Error(`the worker could not run ${request.toolName}: ${response.status} ${await response.text()}`);
      return (await response.json()) as Awaited<ReturnType<DurableRuntime["callTool"]>>;
    },
    async resolveAwakeable(id, payload) {
      const response = await fetchImpl(`${ingressUrl}/restate/awakeables/${encodeURIComponent(id)}/resolve`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok)
        throw new Error(`Restate could not resolve awakeable ${id}: ${response.status} ${await response.text()}`);
      await response.body?.cancel();
    },
  };
}
