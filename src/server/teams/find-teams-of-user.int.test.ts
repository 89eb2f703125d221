// One team of a user answers what the list of their teams says of it: their role as a member, the
// instance admin as owner everywhere, nothing for a team they are not in.
import crypto from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb } from "@/server/db";
import { findTeamOfUser, findTeamsOfUser } from "./find-teams-of-user";

const db = createDb(inject("databaseUrl"));

afterAll(async () => {
  await db.$disconnect();
});

const unique = () => crypto.randomUUID().slice(0, 8);

describe("findTeamOfUser", () => {
  it("agrees with findTeamsOfUser, by slug and by id", async () => {
    const [mine, other] = await Promise.all(
      [0, 1].map((i) => db.team.create({ data: { slug: `t-${unique()}-${i}`, name: `Team ${i}` } })),
    );
    const member = await db.user.create({ data: { email: `m-${unique()}@example.com` } });
    const admin = {
      id: (await db.user.create({ data: { email: `a-${unique()}@example.com`, isInstanceAdmin: true } })).id,
      isInstanceAdmin: true,
    };
    await db.membership.create({ data: { teamId: mine!.id, userId: member.id, role: "viewer" } });
    const user = { id: member.id, isInstanceAdmin: false };

    const listed = await findTeamsOfUser({ db, user });
    expect(await findTeamOfUser({ db, user, team: { slug: mine!.slug } })).toEqual(
      listed.find((t) => t.id === mine!.id),
    );
    expect(await findTeamOfUser({ db, user, team: { id: mine!.id } })).toMatchObject({
      slug: mine!.slug,
      role: "viewer",
    });
    expect(await findTeamOfUser({ db, user, team: { slug: other!.slug } })).toBeUndefined();
    expect(await findTeamOfUser({ db, user, team: { slug: "no-such-team" } })).toBeUndefined();
    expect(await findTeamOfUser({ db, user: admin, team: { id: other!.id } })).toEqual(
      (await findTeamsOfUser({ db, user: admin })).find((t) => t.id === other!.id),
    );
    expect(await findTeamOfUser({ db, user: admin, team: { id: other!.id } })).toMatchObject({ role: "owner" });
  });
});
