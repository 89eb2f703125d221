import { describe, expect, it } from "vitest";
import { isLoopbackAddress, localCaller, proxyEvidence } from "./local-caller";

const headers = (entries: Record<string, string> = {}) => new Headers({ host: "127.0.0.1:3000", ...entries });

describe("localDevStrict", () => {
  it("admits a direct loopback call, with Next's own X-Forwarded-For for the socket", () => {
    expect(proxyEvidence(headers(), "127.0.0.1")).toBeUndefined();
    expect(proxyEvidence(headers({ "x-forwarded-for": "127.0.0.1" }), "127.0.0.1")).toBeUndefined();
    expect(proxyEvidence(headers({ "x-forwarded-for": "::ffff:127.0.0.1" }), "localhost")).toBeUndefined();
    expect(proxyEvidence(headers({ "x-forwarded-for": "::1" }), "::1")).toBeUndefined();
  });

  it("refuses anything forwarded by a proxy", () => {
    expect(proxyEvidence(headers({ "x-forwarded-for": "203.0.113.9" }), "127.0.0.1")).toMatch(
      /forwarded for another address/,
    );
    expect(proxyEvidence(headers({ "x-forwarded-for": "10.0.0.2, 127.0.0.1" }), "127.0.0.1")).toMatch(/forwarded/);
    expect(proxyEvidence(headers({ forwarded: "for=127.0.0.1" }), "127.0.0.1")).toMatch(/forwarded/);
    expect(proxyEvidence(headers({ "x-real-ip": "127.0.0.1" }), "127.0.0.1")).toMatch(/x-real-ip/);
    expect(proxyEvidence(headers({ via: "1.1 tunnel" }), "127.0.0.1")).toMatch(/via/);
    for (const name of ["x-client-ip", "cf-connecting-ip", "true-client-ip"])
      expect(proxyEvidence(headers({ [name]: "x" }), "127.0.0.1")).toBe(`the request carries ${name}`);
    expect(proxyEvidence(headers({ "x-forwarded-host": "agents.example.com" }), "127.0.0.1")).toMatch(
      /forwarded for agents.example.com/,
    );
    // What Next's own server fills in for a direct call.
    const direct = { "x-forwarded-host": "127.0.0.1:3000", "x-forwarded-proto": "http", "x-forwarded-port": "3000" };
    expect(proxyEvidence(headers(direct), "127.0.0.1")).toBeUndefined();
  });

  it("keeps web pages out: a non-loopback Host (DNS rebinding), a foreign Origin or a cross-site fetch", () => {
    expect(proxyEvidence(headers({ host: "evil.example:3000" }), "127.0.0.1")).toMatch(/addressed to evil.example/);
    expect(proxyEvidence(headers({ origin: "https://evil.example" }), "127.0.0.1")).toMatch(
      /web page https:\/\/evil.example/,
    );
    expect(proxyEvidence(headers({ "sec-fetch-site": "cross-site" }), "127.0.0.1")).toMatch(/another site/);
    expect(
      proxyEvidence(
        headers({ host: "localhost:3000", origin: "http://localhost:3000", "sec-fetch-site": "same-origin" }),
        "127.0.0.1",
      ),
    ).toBeUndefined();
    expect(proxyEvidence(headers({ host: "[::1]:3000" }), "::1")).toBeUndefined();
  });

  it("admits nobody when the server listens beyond loopback", () => {
    expect(proxyEvidence(headers(), "0.0.0.0")).toMatch(/not only on loopback/);
  });

  it("knows loopback addresses", () => {
    expect(["127.0.0.1", "127.8.0.1", "::1", "::ffff:127.0.0.1"].map(isLoopbackAddress)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(["10.0.0.1", "::2", "localhost.evil", ""].map(isLoopbackAddress)).toEqual([false, false, false, false]);
  });

  it("gives the local principal access to the single agent only", () => {
    const caller = localCaller("hello");
    expect(caller.principal).toEqual({ kind: "local", id: "local" });
    expect(caller.can("sessions:write", "hello", "team")).toBe(true);
    expect(caller.can("sessions:write", "other", "team")).toBe(false);
  });
});
