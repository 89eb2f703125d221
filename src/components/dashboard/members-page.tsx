"use client";
// Members and invites: admins invite people with a role (the link is shown once), change roles
// and remove members; everyone sees who is in the team.
import type { Role } from "@prisma/client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { canAssign, isAtLeast } from "@/shared/roles";
import { useTeam } from "@/components/shell/app-shell";
import { errorMessage, useTRPC } from "@/components/trpc/provider";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, ErrorNote } from "@/components/ui/card";
import { Field, Input, Select } from "@/components/ui/field";
import { CopyButton } from "./copy-button";

const roleOptions: { role: Role; what: string }[] = [
  { role: "viewer", what: "reads agents and their own sessions" },
  { role: "member", what: "also chats with agents and calls tools" },
  { role: "admin", what: "also uploads agents, approves for others, manages tokens and members" },
  { role: "owner", what: "everything, including other owners" },
];

export function MembersPage({ teamSlug }: { teamSlug: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const team = useTeam(teamSlug);
  const members = useQuery(trpc.teams.members.queryOptions({ teamSlug }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.teams.members.queryKey() });
  const invite = useMutation(trpc.teams.invite.mutationOptions({ onSuccess: refresh }));
  const setRole = useMutation(trpc.teams.setRole.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.teams.removeMember.mutationOptions({ onSuccess: refresh }));
  const revokeInvite = useMutation(trpc.teams.revokeInvite.mutationOptions({ onSuccess: refresh }));
  const [link, setLink] = useState<string | null>(null);
  const isAdmin = team !== undefined && isAtLeast(team.role, "admin");
  const error = invite.error ?? setRole.error ?? remove.error ?? revokeInvite.error;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get("email") ?? "").trim();
    const created = await invite
      .mutateAsync({ teamSlug, role: String(form.get("role")) as Role, email: email || undefined })
      .catch(() => null);
    if (created) setLink(created.url);
  }

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Members</h1>
      {isAdmin ? (
        <Card aria-label="Invite someone">
          <h2 className="font-semibold">Invite someone</h2>
          <form
            onSubmit={submit}
            className="mt-3 grid gap-4 sm:grid-cols-[1fr_14rem_auto] sm:items-end"
            aria-label="Invite someone"
          >
            <Field label="Email (optional)" hint="When set, only this address can use the link.">
              <Input name="email" type="email" data-testid="invite-email" />
            </Field>
            <Field label="Role">
              <Select name="role" defaultValue="member" data-testid="invite-role">
                {roleOptions
                  .filter((o) => team !== undefined && canAssign(team.role, o.role))
                  .map((o) => (
                    <option key={o.role} value={o.role}>
                      {o.role}: {o.what}
                    </option>
                  ))}
              </Select>
            </Field>
            <Button type="submit" disabled={invite.isPending} data-testid="invite-create">
              Create invite link
            </Button>
          </form>
          {link ? (
            <div className="mt-4 flex items-center gap-2">
              <code
                className="flex-1 break-all rounded bg-zinc-100 px-2 py-1.5 font-mono text-xs dark:bg-zinc-800"
                data-testid="invite-link"
              >
                {link}
              </code>
              <CopyButton text={link} />
            </div>
          ) : null}
          {link ? (
            <p className="mt-1 text-xs text-zinc-500">
              Send it to them: it works once, for 7 days, and is not shown again.
            </p>
          ) : null}
        </Card>
      ) : null}
      {error ? <ErrorNote testId="members-error">{errorMessage(error)}</ErrorNote> : null}
      <Card aria-label="Members">
        <ul className="divide-y divide-zinc-100 dark:divide-zinc-800" data-testid="member-list">
          {members.data?.members.map((member) => (
            <li
              key={member.userId}
              className="flex flex-wrap items-center gap-3 py-3"
              data-testid={`member-${member.email}`}
            >
              <div className="flex-1">
                <p className="font-medium">{member.name ?? member.email}</p>
                <p className="text-xs text-zinc-500">
                  {member.email} · joined {new Date(member.joinedAt).toLocaleDateString()}
                </p>
              </div>
              {isAdmin ? (
                <label className="text-sm">
                  <span className="sr-only">Role of {member.email}</span>
                  <Select
                    value={member.role}
                    onChange={(event) =>
                      setRole.mutate({ teamSlug, userId: member.userId, role: event.target.value as Role })
                    }
                    className="w-32"
                  >
                    {roleOptions.map((o) => (
                      <option key={o.role} value={o.role}>
                        {o.role}
                      </option>
                    ))}
                  </Select>
                </label>
              ) : (
                <Badge>{member.role}</Badge>
              )}
              {isAdmin ? (
                <Button size="sm" variant="ghost" onClick={() => remove.mutate({ teamSlug, userId: member.userId })}>
                  Remove
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
        {members.data && members.data.invites.length > 0 ? (
          <>
            <h2 className="mt-4 text-sm font-semibold">Open invites</h2>
            <ul className="mt-2 space-y-2 text-sm">
              {members.data.invites.map((open) => (
                <li key={open.id} className="flex items-center gap-3">
                  <Badge tone="info">{open.role}</Badge>
                  <span>{open.email ?? "anyone with the link"}</span>
                  <span className="text-xs text-zinc-500">expires {new Date(open.expiresAt).toLocaleDateString()}</span>
                  {isAdmin ? (
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => revokeInvite.mutate({ teamSlug, inviteId: open.id })}
                    >
                      Revoke
                    </Button>
                  ) : null}
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </Card>
    </div>
  );
}
