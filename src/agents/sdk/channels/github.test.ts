import { describe, expect, it } from "vitest";
import { descriptorKindOf } from "../descriptor";
import { definitionMessages } from "../test-support";
import { defaultGitHubAuth, githubChannel, githubPrContinuationKey, parseGitHubPrContinuationKey } from "./github";

describe("githubChannel", () => {
  it("reads cursorAccount.repos as watched repos, merged with repos", () => {
    const onPullRequest = () => null;
    const channel = githubChannel({
      botName: "review-bot",
      repos: ["acme/api"],
      cursorAccount: { repos: ["acme/checkout", "acme/api"] },
      onPullRequest,
      progress: { commitStatus: true, banner: true },
      context: ["Be strict about migrations."],
    });
    expect(descriptorKindOf(channel)).toBe("channel");
    expect(channel).toMatchObject({ pack: "github", botName: "review-bot", repos: ["acme/api", "acme/checkout"] });
    expect(channel.onPullRequest).toBe(onPullRequest);
    expect("cursorAccount" in channel).toBe(false);
    expect(channel.hasCursorAccount).toBe(true);
    expect(githubChannel()).toMatchObject({ repos: [], context: [] });
    expect("hasCursorAccount" in githubChannel({ repos: ["acme/api"] })).toBe(false);
  });

  it("refuses bad repos and handlers", () => {
    expect(
      definitionMessages(() => githubChannel({ repos: ["acme"], onPullRequest: "yes", context: "x" } as never)),
    ).toEqual([
      'githubChannel: repos[0]: expected "owner/repo"',
      "githubChannel: onPullRequest: expected a function",
      "githubChannel: context: expected array, got string",
    ]);
  });
});

describe("GitHub helpers", () => {
  it("round-trips PR continuation keys", () => {
    const key = githubPrContinuationKey({ owner: "acme", repo: "check.out", number: 42 });
    expect(key).toBe("pr:acme/check.out#42");
    expect(parseGitHubPrContinuationKey(key)).toEqual({ owner: "acme", repo: "check.out", number: 42 });
  });

  it("returns null for keys that are not PR keys", () => {
    for (const key of ["pr:acme#1", "issue:acme/x#1", "pr:acme/x#0", "pr:acme/x#1x", "http:abc"]) {
      expect(parseGitHubPrContinuationKey(key), key).toBeNull();
    }
  });

  it("runs as the sender, keyed by the stable numeric id", () => {
    expect(defaultGitHubAuth({ sender: { login: "octocat", id: 583231 } })).toEqual({
      kind: "user",
      id: "github:583231",
      attributes: { github_login: "octocat", github_id: "583231" },
    });
  });
});
