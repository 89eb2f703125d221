import os from "node:os";
import path from "node:path";

/** Where global setup leaves the running stack's pid and URL for teardown. */
export const stackFile = path.join(os.tmpdir(), `agentfold-e2e-${process.pid}-stack.json`);

/** Where global setup keeps the fake Slack it started, for teardown (the same process). */
export const fakeSlackKey = "agentfoldE2eFakeSlack";
