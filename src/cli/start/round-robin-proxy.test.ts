import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { getFreePort } from "./ports";
import { startRoundRobinProxy } from "./round-robin-proxy";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A server that answers every connection with its name, then echoes what it is sent. */
async function namedServer(name: string): Promise<number> {
  const port = await getFreePort();
  const server = net.createServer((socket) => {
    socket.write(`${name}\n`);
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return port;
}

/** Connects through the proxy, sends a line, and answers everything it got back until it ends. */
function exchange(port: number, line: string): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    const socket = net.connect({ port, host: "127.0.0.1" }, () => socket.end(line));
    socket.on("data", (chunk) => {
      text += chunk.toString();
      if (text.endsWith(line)) socket.destroy();
    });
    socket.on("close", () => resolve(text));
    socket.on("error", () => undefined);
  });
}

async function proxyTo(ports: number[]): Promise<number> {
  const port = await getFreePort();
  const proxy = await startRoundRobinProxy({
    host: "127.0.0.1",
    port,
    targets: ports.map((target) => ({ host: "127.0.0.1", port: target })),
  });
  closers.push(proxy.close);
  return port;
}

describe("the round-robin proxy", () => {
  it("hands connections to each target in turn and passes bytes both ways", async () => {
    const port = await proxyTo([await namedServer("a"), await namedServer("b")]);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await exchange(port, `ping ${i}`));
    expect(answers).toEqual(["a\nping 0", "b\nping 1", "a\nping 2", "b\nping 3"]);
  });

  it("skips a target that refuses connections, and closes the client's when all do", async () => {
    const dead = await getFreePort();
    const port = await proxyTo([dead, await namedServer("b")]);
    expect([await exchange(port, "x"), await exchange(port, "y")]).toEqual(["b\nx", "b\ny"]);

    const none = await proxyTo([dead, await getFreePort()]);
    expect(await exchange(none, "z")).toBe("");
  });
});
