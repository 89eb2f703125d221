// Sign-up, invites, the sign-in rate limit, the cookie reader and role enforcement on tRPC, on a
// fresh database of the real test Postgres.
import crypto from "node:crypto";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { authSecret, env } from "@/env";
import { createDb } from "@/server/db";
import type { Context } from "@/server/trpc/init";
import { appRouter } from "@/server/trpc/root";
import { createInvite } from "@/server/teams/create-invite";
import { createTestAgent } from "@/testing/fixtures";
import { freshDatabaseUrl } from "@/testing/fresh-database";
import { dashboardCaller } from "./dashboard-caller";
import { readSessionUserId } from "./dashboard-session";
import { signInWithPassword } from "./sign-in-with-password";
import { signUp } from "./sign-up";

let db: ReturnType<typeof createDb>;
const password = "correct horse battery";

beforeAll(async () => {
  db = createDb(await freshDatabaseUrl(inject("databaseUrl")));
}, 60_000);

afterAll(() => db.$disconnect());

const caller = (userId: string | null, isCrossSite = false) =>
  appRouter.createCaller({ db, userId, isCrossSite, origin: "http://127.0.0.1:3000" } satisfies Context);

async function join(email: string, role: "viewer" | "member" | "admin", teamId: string, inviterId: string) {
  const invite = await createInvite({ db, teamId, actorRole: "owner", role, createdById: inviterId });
  return signUp({ db, email, password, inviteToken: invite.token });
}

describe("accounts and teams", () => {
  let ownerId: string;
  let teamId: string;
  let teamSlug: string;

  beforeAll(async () => {
    const first = await signUp({ db, email: "Ada@Example.com", password, name: "Ada", teamName: "Acme Labs" });
    ownerId = first.userId;
    teamSlug = first.teamSlug;
    teamId = (await db.team.findUniqueOrThrow({ where: { slug: teamSlug } })).id;
  });

  it("makes the first account instance admin and owner of a new team", async () => {
    expect(teamSlug).toBe("acme-labs");
    const user = await db.user.findUniqueOrThrow({
      where: { id: ownerId },
      select: { email: true, isInstanceAdmin: true, memberships: { select: { role: true } } },
    });
    expect(user).toEqual({ email: "ada@example.com", isInstanceAdmin: true, memberships: [{ role: "owner" }] });
  });

  it("answers a name Postgres cannot store with BAD_REQUEST, not a server error", async () => {
    await expect(caller(ownerId).teams.create({ name: "Null\u0000Team" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    expect(await db.team.count({ where: { name: { startsWith: "Null" } } })).toBe(0);
  });

  it("closes open sign-up after the first account, without telling which emails exist, and refuses a short password", async () => {
    await expect(signUp({ db, email: "eve@example.com", password })).rejects.toMatchObject({
      code: "forbidden",
      message: /invite/,
    });
    await expect(signUp({ db, email: "ada@example.com", password })).rejects.toMatchObject({
      code: "forbidden",
      message: /invite/,
    });
    const invite = await createInvite({ db, teamId, actorRole: "owner", role: "member", createdById: ownerId });
    await expect(signUp({ db, email: "ada@example.com", password, inviteToken: invite.token })).rejects.toMatchObject({
      code: "conflict",
    });
    await expect(signUp({ db, email: "bob@example.com", password: "short" })).rejects.toMatchObject({
      code: "invalid_input",
      message: /10 characters/,
    });
  });

  it("joins people from an invite with its role, once", async () => {
    const invite = await createInvite({ db, teamId, actorRole: "admin", role: "viewer", createdById: ownerId });
    const joined = await signUp({ db, email: "vic@example.com", password, inviteToken: invite.token });
    expect(joined).toMatchObject({ teamSlug, isInstanceAdmin: false });
    const membership = await db.membership.findFirstOrThrow({ where: { userId: joined.userId } });
    expect(membership.role).toBe("viewer");
    await expect(signUp({ db, email: "mal@example.com", password, inviteToken: invite.token })).rejects.toMatchObject({
      code: "conflict",
      message: /already used/,
    });
    await expect(
      createInvite({ db, teamId, actorRole: "admin", role: "owner", createdById: ownerId }),
    ).rejects.toMatchObject({ code: "forbidden" });
  });

  it("signs in with the password, saying the same for a wrong password and an unknown email", async () => {
    await expect(signInWithPassword({ db, email: "ADA@example.com", password })).resolves.toMatchObject({
      id: ownerId,
    });
    await expect(
      signInWithPassword({ db, email: "ada@example.com", password: "nope-nope-nope" }),
    ).rejects.toMatchObject({ message: "wrong email or password" });
    await expect(signInWithPassword({ db, email: "ghost@example.com", password })).rejects.toMatchObject({
      message: "wrong email or password",
    });
  });

  it("rate-limits failed sign-ins per email, even with the right password afterwards", async () => {
    await join("rita@example.com", "member", teamId, ownerId);
    for (let i = 0; i < 5; i++)
      await expect(
        signInWithPassword({ db, email: "rita@example.com", password: "wrong-password" }),
      ).rejects.toMatchObject({ code: "unauthorized" });
    await expect(signInWithPassword({ db, email: "rita@example.com", password })).rejects.toMatchObject({
      code: "rate_limited",
      message: /try again in 15 minutes/,
    });
    // Another account from elsewhere is not affected.
    await expect(signInWithPassword({ db, email: "ada@example.com", password })).resolves.toMatchObject({
      id: ownerId,
    });
  });

  it("reads the sign-in cookie, and nothing tampered or foreign", async () => {
    const token = await encode({ token: { sub: ownerId }, secret: authSecret(env()) });
    const headers = (cookie: string) => new Headers({ cookie });
    expect(await readSessionUserId(headers(`other=1; next-auth.session-token=${token}`))).toBe(ownerId);
    expect(await readSessionUserId(headers(`tracker=100%; next-auth.session-token=${token}`))).toBe(ownerId);
    expect(await readSessionUserId(headers(`next-auth.session-token=%E0%A4%A`))).toBeNull();
    expect(await readSessionUserId(headers(`next-auth.session-token=${token.slice(0, -4)}abcd`))).toBeNull();
    const foreign = await encode({ token: { sub: ownerId }, secret: "another-secret-of-at-least-32-characters" });
    expect(await readSessionUserId(headers(`next-auth.session-token=${foreign}`))).toBeNull();
    const expired = await encode({ token: { sub: ownerId }, secret: authSecret(env()), maxAge: -60 }); // past the 15 s clock tolerance
    expect(await readSessionUserId(headers(`next-auth.session-token=${expired}`))).toBeNull();
  });

  it("gives API callers from the dashboard their role's rights in the agent's team only", async () => {
    const viewer = await join("val@example.com", "viewer", teamId, ownerId);
    const asViewer = await dashboardCaller({ db, userId: viewer.userId });
    expect(asViewer.principal).toMatchObject({
      kind: "user",
      id: viewer.userId,
      attributes: { email: "val@example.com" },
    });
    expect(asViewer.can("agents:read", "desk", teamId)).toBe(true);
    expect(asViewer.can("sessions:write", "desk", teamId)).toBe(false);
    expect(asViewer.can("agents:deploy", "desk", teamId)).toBe(false);
    expect(asViewer.can("agents:read", "desk", "another-team")).toBe(false);
    const asOwner = await dashboardCaller({ db, userId: ownerId });
    expect(asOwner.can("agents:deploy", "desk", teamId)).toBe(true);
  });

  it("enforces roles on tRPC procedures, whatever the UI shows", async () => {
    const viewer = await join("vera@example.com", "viewer", teamId, ownerId);
    const member = await join("mo@example.com", "member", teamId, ownerId);
    const asViewer = caller(viewer.userId);
    await expect(asViewer.agents.list({ teamSlug })).resolves.toEqual([]);
    await expect(asViewer.agents.activate({ teamSlug, slug: "desk", number: 1 })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: /needs the admin role/,
    });
    await expect(asViewer.teams.invite({ teamSlug, role: "viewer" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      asViewer.tokens.create({ teamSlug, name: "x", actions: ["sessions:write"], agentSlugs: [], expiresInDays: 1 }),
    ).rejects.toMatchObject({ code: "FORBIDDEN", message: /cannot grant sessions:write/ });
    await expect(
      asViewer.tokens.create({
        teamSlug,
        name: "reader",
        actions: ["sessions:read"],
        agentSlugs: [],
        expiresInDays: 1,
      }),
    ).resolves.toMatchObject({ token: expect.stringMatching(/^af_/) });
    const asMember = caller(member.userId);
    await expect(asMember.teams.setRole({ teamSlug, userId: viewer.userId, role: "admin" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(asMember.tokens.list({ teamSlug })).resolves.toEqual([]); // not the viewer's token
    await expect(caller(ownerId).tokens.list({ teamSlug })).resolves.toHaveLength(1);
    await expect(caller(null).teams.mine()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(caller(member.userId).teams.members({ teamSlug: "no-such-team" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(caller(ownerId, true).teams.create({ name: "Evil" })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: /cross-site/,
    });
  });

  it("takes tokens and invites away with the rights that made them", async () => {
    const admin = await join("adam@example.com", "admin", teamId, ownerId);
    const asAdmin = caller(admin.userId);
    const deployer = await asAdmin.tokens.create({
      teamSlug,
      name: "deployer",
      actions: ["agents:deploy"],
      agentSlugs: [],
      expiresInDays: 1,
    });
    const reader = await asAdmin.tokens.create({
      teamSlug,
      name: "reader",
      actions: ["sessions:read"],
      agentSlugs: [],
      expiresInDays: 1,
    });
    const invite = await asAdmin.teams.invite({ teamSlug, role: "member" });
    await caller(ownerId).teams.setRole({ teamSlug, userId: admin.userId, role: "member" });
    const revoked = async (id: string) => (await db.apiToken.findUniqueOrThrow({ where: { id } })).revokedAt !== null;
    expect(await revoked(deployer.id)).toBe(true);
    expect(await revoked(reader.id)).toBe(false);
    await expect(caller(null).teams.inviteInfo({ token: invite.url.split("invite=")[1]! })).resolves.toEqual({
      isOpen: false,
    });
    await caller(ownerId).teams.removeMember({ teamSlug, userId: admin.userId });
    expect(await revoked(reader.id)).toBe(true);
  });

  it("lets members revoke only their own tokens, and admins any", async () => {
    const maker = await join("token-maker@example.com", "member", teamId, ownerId);
    const other = await join("token-other@example.com", "member", teamId, ownerId);
    const mine = await caller(maker.userId).tokens.create({
      teamSlug,
      name: "mine",
      actions: ["sessions:read"],
      agentSlugs: [],
      expiresInDays: 1,
    });
    const theirs = await caller(maker.userId).tokens.create({
      teamSlug,
      name: "theirs",
      actions: ["sessions:read"],
      agentSlugs: [],
      expiresInDays: 1,
    });
    await expect(caller(other.userId).tokens.revoke({ teamSlug, tokenId: mine.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: /only admins/,
    });
    await caller(maker.userId).tokens.revoke({ teamSlug, tokenId: mine.id });
    await expect(caller(maker.userId).tokens.revoke({ teamSlug, tokenId: mine.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await caller(ownerId).tokens.revoke({ teamSlug, tokenId: theirs.id });
    const revokedAt = async (id: string) => (await db.apiToken.findUniqueOrThrow({ where: { id } })).revokedAt;
    expect(await revokedAt(mine.id)).not.toBeNull();
    expect(await revokedAt(theirs.id)).not.toBeNull();
  });

  it("lists every agent of a person's teams, with its team, in one call", async () => {
    const reader = await join("agent-reader@example.com", "viewer", teamId, ownerId);
    const elsewhere = await createTestAgent(db); // a team the reader is not in
    const suffix = crypto.randomUUID().slice(0, 6);
    await db.agent.createMany({
      data: [
        { teamId, slug: `zeta-${suffix}`, name: "Zeta" },
        { teamId, slug: `alpha-${suffix}`, name: "Alpha" },
      ],
    });
    const mine = await caller(reader.userId).agents.mine();
    const ours = mine.filter((agent) => agent.slug.endsWith(suffix));
    expect(ours.map((agent) => [agent.slug, agent.team.slug])).toEqual([
      [`alpha-${suffix}`, teamSlug],
      [`zeta-${suffix}`, teamSlug],
    ]);
    expect(mine.some((agent) => agent.slug === elsewhere.agent.slug)).toBe(false);
    expect(mine.every((agent) => agent.team.slug === teamSlug)).toBe(true);
  });

  it("lets only the instance admin open teams", async () => {
    const member = await join("max@example.com", "member", teamId, ownerId);
    await expect(caller(member.userId).teams.create({ name: "Side project" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(caller(ownerId).teams.create({ name: "Side project" })).resolves.toMatchObject({
      slug: "side-project",
    });
  });

  it("keeps at least one owner", async () => {
    await expect(caller(ownerId).teams.setRole({ teamSlug, userId: ownerId, role: "admin" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: /at least one owner/,
    });
    // Two owners stepping down at the same moment: one of them stays owner.
    const team = await caller(ownerId).teams.create({ name: "Pair" });
    const other = await join("otto@example.com", "member", team.id, ownerId);
    await caller(ownerId).teams.setRole({ teamSlug: team.slug, userId: other.userId, role: "owner" });
    await db.user.update({ where: { id: ownerId }, data: { isInstanceAdmin: false } }); // act as a plain owner
    try {
      const results = await Promise.allSettled([
        caller(ownerId).teams.setRole({ teamSlug: team.slug, userId: ownerId, role: "admin" }),
        caller(other.userId).teams.setRole({ teamSlug: team.slug, userId: other.userId, role: "admin" }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
      expect(await db.membership.count({ where: { teamId: team.id, role: "owner" } })).toBe(1);
    } finally {
      await db.user.update({ where: { id: ownerId }, data: { isInstanceAdmin: true } });
    }
  });
});
