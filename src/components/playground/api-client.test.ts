import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, createApiClient } from "./api-client";

function stubFetch(response: Response) {
  const fetch = vi.fn(async (_url: string, _init: RequestInit) => response);
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

afterEach(() => vi.unstubAllGlobals());

describe("createApiClient", () => {
  it("calls the agent's /v1 with same-origin cookies and the token as a bearer", async () => {
    const fetch = stubFetch(Response.json({ ok: true, sessionId: "ses_1" }));
    const answer = await createApiClient("desk", "af_secret").json("POST", "/session", { body: { message: "hi" } });
    expect(answer).toEqual({ ok: true, sessionId: "ses_1" });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe("/desk/v1/session");
    expect(init).toMatchObject({ method: "POST", credentials: "same-origin", body: '{"message":"hi"}' });
    expect(init.headers).toMatchObject({ authorization: "Bearer af_secret", "content-type": "application/json" });
  });

  it("sends no authorization header without a token (a dashboard cookie may still apply)", async () => {
    const fetch = stubFetch(Response.json({ ok: true }));
    await createApiClient("desk", "").json("GET", "/session");
    expect(fetch.mock.calls[0]![1].headers).not.toHaveProperty("authorization");
  });

  it("turns the wire error into an ApiError whose message says what to do", async () => {
    stubFetch(Response.json({ ok: false, error: "unauthorized", message: "missing credentials" }, { status: 401 }));
    const error = await createApiClient("desk", "")
      .json("GET", "/session")
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 401,
      code: "unauthorized",
      message: "missing credentials. Sign in, or paste a token in the token field.",
    });
  });

  it("explains a response that is not the wire format by its status", async () => {
    stubFetch(new Response("<html>Bad gateway</html>", { status: 502 }));
    await expect(createApiClient("desk", "").json("GET", "/info")).rejects.toMatchObject({
      status: 502,
      message: expect.stringMatching(/answered 502/),
    });
  });

  it("says the server could not be reached when fetch itself fails", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Promise.reject(new TypeError("Failed to fetch"))),
    );
    await expect(createApiClient("desk", "").json("GET", "/info")).rejects.toMatchObject({
      status: 0,
      code: "network",
    });
  });
});
