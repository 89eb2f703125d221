import { describe, expect, it } from "vitest";
import { assertSameOrigin } from "./dashboard-caller";

const request = (method: string, headers: Record<string, string>) =>
  new Request("http://127.0.0.1:3000/desk/v1/session", { method, headers: { host: "127.0.0.1:3000", ...headers } });

describe("cookie-authenticated requests", () => {
  it("allow the dashboard's own pages and reads from anywhere", () => {
    expect(() =>
      assertSameOrigin(request("POST", { origin: "http://127.0.0.1:3000", "sec-fetch-site": "same-origin" })),
    ).not.toThrow();
    expect(() => assertSameOrigin(request("POST", {}))).not.toThrow(); // curl with a copied cookie: no browser, no CSRF
    expect(() =>
      assertSameOrigin(request("GET", { origin: "https://evil.example", "sec-fetch-site": "cross-site" })),
    ).not.toThrow();
  });

  it("refuse changes sent from another site", () => {
    expect(() => assertSameOrigin(request("POST", { origin: "https://evil.example" }))).toThrow(/cross-origin/);
    expect(() => assertSameOrigin(request("DELETE", { "sec-fetch-site": "cross-site" }))).toThrow(/cross-site/);
    expect(() =>
      assertSameOrigin(request("POST", { "sec-fetch-site": "same-site", origin: "http://127.0.0.1:3001" })),
    ).toThrow(/cross-site/);
    expect(() => assertSameOrigin(request("POST", { origin: "null" }))).toThrow(/cross-origin/);
  });
});
