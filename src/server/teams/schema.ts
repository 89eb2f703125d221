// Inputs and outputs of the teams domain: teams, members and invites (docs/dashboard.md).
import { z } from "zod";
import { roles } from "@/shared/roles";

export const roleSchema = z.enum(roles);

/** Every team procedure's input: the team it acts on (src/server/trpc/init.ts teamProcedure). */
export const teamInputSchema = z.object({ teamSlug: z.string().min(1) });

export const teamOfUserSchema = z.object({ id: z.string(), slug: z.string(), name: z.string(), role: roleSchema });
export const teamsOfUserSchema = z.array(teamOfUserSchema);

export const currentUserSchema = z.object({
  email: z.string().nullable(),
  name: z.string().nullable(),
  isInstanceAdmin: z.boolean(),
});

export const createTeamInputSchema = z.object({ name: z.string().trim().min(1, "a team needs a name").max(80) });
export const createdTeamSchema = z.object({ id: z.string(), slug: z.string() });

export const membersSchema = z.object({
  members: z.array(
    z.object({
      userId: z.string(),
      email: z.string(),
      name: z.string().nullable(),
      role: roleSchema,
      joinedAt: z.date(),
    }),
  ),
  /** Open invites only: not accepted, not revoked, not expired. */
  invites: z.array(
    z.object({
      id: z.string(),
      role: roleSchema,
      email: z.string().nullable(),
      expiresAt: z.date(),
      createdAt: z.date(),
    }),
  ),
});

export const createInviteInputSchema = z.object({ role: roleSchema, email: z.email().optional() });
/** The link carries the invite's secret: shown once. */
export const createdInviteSchema = z.object({ url: z.string(), expiresAt: z.date() });

/** Changes that answer nothing but success. */
export const noResultSchema = z.void();

export const revokeInviteInputSchema = z.object({ inviteId: z.string() });
export const setRoleInputSchema = z.object({ userId: z.string(), role: roleSchema });
export const removeMemberInputSchema = z.object({ userId: z.string() });

export const inviteTokenInputSchema = z.object({ token: z.string() });

/** What an invite link offers; a closed one (used, revoked, expired or unknown) says nothing more. */
export const inviteInfoSchema = z.discriminatedUnion("isOpen", [
  z.object({ isOpen: z.literal(true), teamName: z.string(), role: roleSchema, email: z.string().nullable() }),
  z.object({ isOpen: z.literal(false) }),
]);

export const acceptedInviteSchema = z.object({ teamId: z.string(), teamSlug: z.string(), role: roleSchema });

export type CurrentUser = z.infer<typeof currentUserSchema>;
export type CreatedInvite = z.infer<typeof createdInviteSchema>;
export type InviteInfo = z.infer<typeof inviteInfoSchema>;
