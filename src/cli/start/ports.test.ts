import net from "node:net";
import { describe, expect, it } from "vitest";
import { assertPortFree, getFreePort, PortInUseError, releasePorts, reservePorts } from "./ports";

describe("assertPortFree", () => {
  it("passes for a free port and names port and variable for a taken one", async () => {
    const port = await getFreePort();
    await expect(assertPortFree({ port, component: "web", variable: "PORT" })).resolves.toBeUndefined();

    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    try {
      const error = await assertPortFree({ port, component: "web", variable: "PORT" }).catch((e) => e);
      expect(error).toBeInstanceOf(PortInUseError);
      expect(error.message).toBe(
        `Port ${port} (web) is already in use. Stop whatever holds it, or set PORT to another port.`,
      );
    } finally {
      server.close();
    }
  });
});

describe("getFreePort", () => {
  it("hands out distinct ports below the ephemeral range, each one free to listen on", async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => getFreePort()));
    expect(new Set(ports).size).toBe(20);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(32_768);
      await expect(assertPortFree({ port, component: "test", variable: "PORT" })).resolves.toBeUndefined();
    }
  });
});

describe("reservePorts", () => {
  it("hands a port to one taker on this machine, and a set of ports all or none", async () => {
    const taken = await getFreePort();
    // getFreePort reserved it: nobody else (another test file's process included) gets it now.
    expect(reservePorts([taken])).toBe(false);

    const a = await getFreePort();
    releasePorts([a]);
    const b = await getFreePort();
    expect(reservePorts([a, b])).toBe(false);
    // The refused set left nothing behind: a is free to reserve again.
    expect(reservePorts([a])).toBe(true);
    releasePorts([a, b, taken]);
  });
});
