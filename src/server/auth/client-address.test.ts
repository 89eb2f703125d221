import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "@/env";
import { clientAddress, peerAddressHeader, stampPeerAddress, trustedProxies } from "./client-address";

const proxies = trustedProxies(
  parseEnv({ AGENTFOLD_TRUSTED_PROXIES: "10.0.0.0/8, 192.168.1.7,fd00::/8" }).AGENTFOLD_TRUSTED_PROXIES,
);

describe("AGENTFOLD_TRUSTED_PROXIES", () => {
  it("trusts nobody by default", () => {
    expect(parseEnv({}).AGENTFOLD_TRUSTED_PROXIES).toEqual([]);
  });

  it("takes IPs and CIDRs of both families, and names the variable of a bad entry", () => {
    expect([
      proxies.has("10.20.30.40"),
      proxies.has("192.168.1.7"),
      proxies.has("192.168.1.8"),
      proxies.has("fd12::1"),
      proxies.has("::ffff:10.1.1.1"),
    ]).toEqual([true, true, false, true, true]);
    for (const bad of ["10.0.0.0/33", "proxy.example.com", "10.0.0.1/8/2", "::1/129", "10.0.0.1/x"]) {
      const parsing = () => parseEnv({ AGENTFOLD_TRUSTED_PROXIES: `127.0.0.1,${bad}` });
      expect(parsing).toThrow(EnvError);
      expect(parsing).toThrow(
        /AGENTFOLD_TRUSTED_PROXIES: .*not an IP address or CIDR|AGENTFOLD_TRUSTED_PROXIES: .*bad prefix length/,
      );
    }
  });
});

describe("clientAddress", () => {
  it("is an untrusted peer itself, whatever X-Forwarded-For it sends", () => {
    for (const forwardedFor of ["1.1.1.1", "2.2.2.2, 10.0.0.1", undefined]) {
      expect(clientAddress({ peer: "203.0.113.9", forwardedFor, trusted: proxies })).toBe("203.0.113.9");
    }
  });

  it("reads X-Forwarded-For from the right past every trusted proxy", () => {
    expect(clientAddress({ peer: "10.0.0.1", forwardedFor: "198.51.100.4", trusted: proxies })).toBe("198.51.100.4");
    // A client's own entry to the left of the one the proxies vouch for proves nothing.
    expect(
      clientAddress({ peer: "::ffff:10.0.0.1", forwardedFor: "6.6.6.6, 198.51.100.4, 192.168.1.7", trusted: proxies }),
    ).toBe("198.51.100.4");
    // A trusted proxy that names nobody is the client.
    expect(clientAddress({ peer: "10.0.0.1", trusted: proxies })).toBe("10.0.0.1");
  });
});

describe("stampPeerAddress", () => {
  it("replaces a peer address the client claims with the socket's", async () => {
    let seen: unknown;
    const server = http.createServer((req, res) => {
      stampPeerAddress(req);
      seen = req.headers[peerAddressHeader];
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
        headers: { [peerAddressHeader]: "10.0.0.1" },
      });
      expect(seen).toBe("127.0.0.1");
    } finally {
      server.close();
    }
  });
});
