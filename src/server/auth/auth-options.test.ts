import { describe, expect, it } from "vitest";
import { parseEnv } from "@/env";
import { providers } from "./auth-options";

const ids = (variables: Record<string, string>) => providers(parseEnv(variables)).map((p) => p.id);

describe("sign-in providers", () => {
  it("offer email and password alone by default", () => {
    expect(ids({})).toEqual(["credentials"]);
  });

  it("add GitHub and OIDC when both halves of their configuration are set", () => {
    expect(ids({ GITHUB_ID: "id" })).toEqual(["credentials"]);
    expect(ids({ GITHUB_ID: "id", GITHUB_SECRET: "secret" })).toEqual(["credentials", "github"]);
    const oidc = {
      OIDC_ISSUER: "https://sso.example.com/realms/acme",
      OIDC_CLIENT_ID: "agentfold",
      OIDC_CLIENT_SECRET: "s",
    };
    const list = providers(parseEnv(oidc));
    expect(list.map((p) => p.id)).toEqual(["credentials", "oidc"]);
    expect(list[1]).toMatchObject({
      name: "Single sign-on",
      wellKnown: "https://sso.example.com/realms/acme/.well-known/openid-configuration",
    });
  });
});
