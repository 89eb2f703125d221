// `agentfold login <url>` without a token: asks the instance for a login (POST /v1/cli-login),
// shows the page to open and the code, opens a browser when there is one, and polls until a
// signed-in member approves (the token comes back once), denies, or the request expires.
import os from "node:os";
import type { Env } from "@/env";
import { sleep } from "@/cli/start/wait";
import { collectedCliLoginSchema, startedCliLoginSchema } from "@/server/cli-login/schema";
import { AppError } from "@/server/errors";
import { instanceClient } from "./instance-client";
import { openBrowser } from "./open-browser";

export type ApprovedLogin = { token: string; team: { slug: string; name: string }; expiresAt: string };

export async function deviceLogin(options: {
  url: string;
  config: Pick<Env, "BROWSER" | "DISPLAY" | "WAYLAND_DISPLAY">;
  isBrowserWanted: boolean;
  say: (line: string) => void;
}): Promise<ApprovedLogin> {
  const { url, say } = options;
  // No token yet: the start and the poll are public routes.
  const client = instanceClient({ url, token: "" });
  const started = await client.request("POST", "/v1/cli-login", startedCliLoginSchema, { hostname: os.hostname() });
  const page = `${url}/cli-login?code=${started.code}`;
  say(`to log in, open ${page}`);
  say(`and confirm the code ${started.code} (it expires at ${new Date(started.expiresAt).toLocaleTimeString()})`);
  if (options.isBrowserWanted && openBrowser(page, options.config)) say("(opening it in your browser)");
  say("waiting for the approval… (Ctrl-C gives up)");
  for (;;) {
    await sleep(started.intervalSeconds * 1000);
    const answer = await client.request("POST", "/v1/cli-login/poll", collectedCliLoginSchema, {
      requestId: started.requestId,
    });
    if (answer.status === "approved") return answer;
    if (answer.status === "denied") throw new AppError("forbidden", `the login ${started.code} was denied`);
    if (answer.status === "expired")
      throw new AppError(
        "unauthorized",
        `the code ${started.code} expired before anyone approved it; run agentfold login again`,
      );
  }
}
