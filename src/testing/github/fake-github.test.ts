// The fake GitHub checks credentials as GitHub does, so a test that passes through it proves the
// platform authenticated: an App's installation token needs a JWT signed by the App's own key.
import crypto from "node:crypto";
import { App } from "@octokit/app";
import { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeGitHub, startFakeGitHub } from "./fake-github";

const keys = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
const otherKeys = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
const pem = (key: crypto.KeyObject) => key.export({ type: "pkcs8", format: "pem" }) as string;
let fake: FakeGitHub;

beforeAll(async () => {
  fake = await startFakeGitHub({ app: { id: 7, publicKey: keys.publicKey, installations: { "acme/shop": 70 } } });
});
afterAll(() => fake.close());

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const app = (id: number, privateKey: string) =>
  new App({ appId: id, privateKey, Octokit: Octokit.defaults({ baseUrl: fake.url, log: quiet }), log: quiet });

describe("the fake GitHub", () => {
  it("issues installation tokens for the App's own JWT, and accepts only those", async () => {
    const octokit = (await app(7, pem(keys.privateKey)).getInstallationOctokit(70)) as Octokit;
    const { data } = await octokit.rest.issues.createComment({
      owner: "acme",
      repo: "shop",
      issue_number: 3,
      body: "hi",
    });
    expect(fake.comments).toEqual([{ id: data.id, owner: "acme", repo: "shop", number: 3, body: "hi", edits: 0 }]);
    expect(fake.calls.at(-1)?.authorization).toBe(`token ${fake.issuedTokens[0]}`);
    const stranger = new (Octokit.defaults({ baseUrl: fake.url, log: quiet }))({ auth: "ghs_made_up" });
    await expect(
      stranger.rest.issues.createComment({ owner: "acme", repo: "shop", issue_number: 3, body: "x" }),
    ).rejects.toMatchObject({ status: 401 });
  });

  it("refuses a JWT signed by another key or issued for another App", async () => {
    // Installation Octokits mint their token on their first request.
    const comment = async (id: number, key: string) =>
      ((await app(id, key).getInstallationOctokit(70)) as Octokit).rest.issues.createComment({
        owner: "acme",
        repo: "shop",
        issue_number: 3,
        body: "x",
      });
    await expect(comment(7, pem(otherKeys.privateKey))).rejects.toMatchObject({ status: 401 });
    await expect(comment(8, pem(keys.privateKey))).rejects.toMatchObject({ status: 401 });
    expect(fake.issuedTokens).toHaveLength(1);
    expect(fake.comments).toHaveLength(1);
  });
});
