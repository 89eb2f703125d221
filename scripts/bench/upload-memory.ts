// Memory of the web process under 8 parallel 49 MiB uploads (issue goal: bounded): the whole
// stack as `npm start` runs it, each upload a real HTTP POST of a zip of an agent folder with a
// 48.5 MiB file of random bytes (incompressible, so the archive is as large as it expands to).
// The web process's RSS is sampled from /proc every 20 ms; VmHWM is the kernel's peak.
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import { freeStackPorts, makeDataDir, printedPid, spawnSupervisor, stackCli } from "@/testing/supervisor-process";
import { zipOf } from "@/testing/archives";
import { ms } from "./stats";

const parallel = 8;
const mib = 1024 * 1024;

function memoryOf(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (name: string) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, "m"))?.[1] ?? 0) * 1024;
  return { rss: kib("VmRSS"), peak: kib("VmHWM") };
}

function upload(url: string, token: string, body: Buffer): Promise<{ status: number; text: string; at: number }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/zip", "content-length": body.length },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, text, at: performance.now() }));
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

export async function benchUploadMemory(): Promise<string> {
  const dataDir = makeDataDir();
  const ports = await freeStackPorts();
  const supervisor = spawnSupervisor({ ...ports, AGENTFOLD_DATA_DIR: dataDir });
  try {
    const [, url] = await supervisor.waitForOutput(/Agentfold is ready: open (http:\/\/\S+)/, 900_000);
    const cli = stackCli(dataDir, ports);
    await cli("team", "create", "--team", "bench");
    const token = await cli("token", "create", "--team", "bench", "--actions", "agents:deploy", "--name", "bench");
    const webPid = printedPid(supervisor.output(), "web");
    const archive = await zipOf([
      { name: "big/package.json", content: '{"name":"big"}' },
      { name: "big/bot/instructions.md", content: "Help." },
      { name: "big/data/blob.bin", content: crypto.randomBytes(48.5 * mib) },
    ]);
    // One upload first, so the route's modules are loaded before the baseline is read.
    const warm = await upload(`${url}/v1/agents/warm/versions?team=bench&activate=false`, token, archive);
    if (warm.status !== 200)
      throw new Error(`warm-up upload answered ${warm.status} ${warm.text}\n${supervisor.output().slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const before = memoryOf(webPid);
    let sampled = before.rss;
    const sampler = setInterval(() => (sampled = Math.max(sampled, memoryOf(webPid).rss)), 20);
    const startedAt = performance.now();
    const answers = await Promise.all(
      Array.from({ length: parallel }, (_, i) =>
        upload(`${url}/v1/agents/big-${i}/versions?team=bench&activate=false`, token, archive),
      ),
    );
    clearInterval(sampler);
    const after = memoryOf(webPid);
    const times = answers.map((answer) => answer.at - startedAt).sort((a, b) => a - b);
    const statuses = [...new Set(answers.map((answer) => answer.status))].join(", ");
    const line = (label: string, bytes: number) => `| ${label} | ${(bytes / mib).toFixed(0)} MiB |`;
    console.log(
      `upload memory: baseline ${(before.rss / mib).toFixed(0)} MiB, peak ${(Math.max(sampled, after.peak) / mib).toFixed(0)} MiB`,
    );
    return `## Memory under ${parallel} parallel 49 MiB uploads

${parallel} clients POST a ${(archive.length / mib).toFixed(1)} MiB zip to \`/v1/agents/:slug/versions\` at once,
through the whole stack. Two uploads run at a time and the others wait without their bodies being
read (src/server/agents/upload-slots.ts). RSS of the web process (the loader's children are not
in it):

| | |
|---|---|
${line("before (after one warm-up upload)", before.rss)}
${line("peak while the uploads ran (sampled every 20 ms)", sampled)}
${line("peak over the process's life (VmHWM)", after.peak)}
${line("peak above the baseline", Math.max(sampled, after.peak) - before.rss)}

Answers: ${statuses}; the first came after ${ms(times[0]!)}, the last after ${ms(times.at(-1)!)}.
`;
  } finally {
    await supervisor.stop("SIGTERM");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
