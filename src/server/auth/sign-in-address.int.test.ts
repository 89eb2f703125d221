// The sign-in rate limit per client address, as the web process feeds it: the peer's address
// stamped from the socket, X-Forwarded-For taken only from trusted proxies.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { parseEnv } from "@/env";
import { createDb } from "@/server/db";
import { freshDatabaseUrl } from "@/testing/fresh-database";
import { signInAddress } from "./auth-options";
import { peerAddressHeader } from "./client-address";
import { signInWithPassword } from "./sign-in-with-password";

let db: ReturnType<typeof createDb>;
const config = parseEnv({ AGENTFOLD_TRUSTED_PROXIES: "10.1.0.0/16" });

beforeAll(async () => {
  db = createDb(await freshDatabaseUrl(inject("databaseUrl")));
}, 60_000);
afterAll(() => db.$disconnect());

/** One failed password sign-in, as NextAuth hands the request's headers to authorize(). */
async function attempt(n: number, headers: Record<string, string>): Promise<string> {
  const ip = signInAddress(headers, config);
  // A new email each time: only the address's count can stop these.
  return signInWithPassword({
    db,
    email: `guess-${n}-${crypto.randomUUID()}@example.com`,
    password: "not the password",
    ip,
  }).then(
    () => "signed in",
    (error: { code: string }) => error.code,
  );
}

describe("the sign-in limit per client address", () => {
  it("still locks an untrusted peer out after 30 failures while it rotates X-Forwarded-For", async () => {
    const codes: string[] = [];
    for (let n = 0; n < 31; n++)
      codes.push(await attempt(n, { [peerAddressHeader]: "203.0.113.5", "x-forwarded-for": `198.51.100.${n}` }));
    expect(codes.slice(0, 30).every((code) => code === "unauthorized")).toBe(true);
    expect(codes[30]).toBe("rate_limited");
  });

  it("counts the client a trusted proxy names, not the proxy", async () => {
    const viaProxy = (client: string) => ({ [peerAddressHeader]: "10.1.2.3", "x-forwarded-for": `6.6.6.6, ${client}` });
    const codes: string[] = [];
    for (let n = 0; n < 31; n++) codes.push(await attempt(n, viaProxy("192.0.2.10")));
    expect(codes[30]).toBe("rate_limited");
    // Another client behind the same proxy is not locked out by the first one's failures.
    expect(await attempt(99, viaProxy("192.0.2.11"))).toBe("unauthorized");
  });
});
