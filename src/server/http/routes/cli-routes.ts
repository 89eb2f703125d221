// The host-level routes `agentfold` needs besides the rest of the table (docs/cli.md): who a token
// is, tokens made and revoked by tokens, and the device-style login's start and poll.
import { collectCliLogin } from "@/server/cli-login/collect-cli-login";
import {
  collectCliLoginBodySchema,
  collectedCliLoginSchema,
  startCliLoginBodySchema,
  startedCliLoginSchema,
} from "@/server/cli-login/schema";
import { startCliLogin } from "@/server/cli-login/start-cli-login";
import { createTokenAsCaller } from "@/server/tokens/create-token-as-caller";
import { getCallerIdentity } from "@/server/tokens/get-caller-identity";
import { revokeTokenBySecret } from "@/server/tokens/revoke-token";
import {
  callerIdentitySchema,
  createdTokenAnswerSchema,
  createTokenBodySchema,
  revokedTokenAnswerSchema,
  revokeTokenBodySchema,
} from "@/server/tokens/schema";
import { AppError } from "@/server/errors";
import { db } from "../platform";
import { hostRoute } from "../v1-route";

export const cliRoutes = [
  hostRoute({
    method: "GET",
    path: "/v1/whoami",
    name: "whoami",
    summary: "Who the credential is: a token's team, name, prefix, actions, agents and expiry, or a person's teams",
    access: "caller",
    response: { json: callerIdentitySchema },
    handler: ({ caller }) => getCallerIdentity({ db: db(), caller: caller! }),
  }),
  hostRoute({
    method: "POST",
    path: "/v1/tokens",
    name: "createToken",
    summary: "Make a token with a token (tokens:write), within its actions, agents, expiry and its maker's role",
    access: "caller",
    body: createTokenBodySchema,
    response: { json: createdTokenAnswerSchema },
    handler: ({ caller, body }) => createTokenAsCaller({ db: db(), caller: caller!, body }),
  }),
  hostRoute({
    method: "POST",
    path: "/v1/tokens/revoke",
    name: "revokeToken",
    summary: "Revoke a token of the caller's team, given its secret (any token may revoke itself)",
    access: "caller",
    body: revokeTokenBodySchema,
    response: { json: revokedTokenAnswerSchema },
    handler: async ({ caller, body }) => {
      const teamIds = caller!.teamId ? [caller!.teamId] : caller!.teamIds;
      if (!teamIds) throw new AppError("forbidden", "this caller has no team");
      await revokeTokenBySecret({ db: db(), token: body.token, teamIds });
      return { ok: true, revoked: true };
    },
  }),
  hostRoute({
    method: "POST",
    path: "/v1/cli-login",
    name: "startCliLogin",
    summary: "Start a device-style login: a code for a person to approve on /cli-login, and a secret to poll with",
    access: "public",
    body: startCliLoginBodySchema,
    response: { json: startedCliLoginSchema },
    handler: async ({ body }) => ({ ok: true, ...(await startCliLogin({ db: db(), hostname: body.hostname })) }),
  }),
  hostRoute({
    method: "POST",
    path: "/v1/cli-login/poll",
    name: "pollCliLogin",
    summary: "A started login's state; once approved, its bearer token (answered exactly once)",
    access: "public",
    body: collectCliLoginBodySchema,
    response: { json: collectedCliLoginSchema },
    handler: ({ body }) => collectCliLogin({ db: db(), requestId: body.requestId }),
  }),
];
