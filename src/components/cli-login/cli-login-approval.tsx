"use client";
// Approving an `agentfold login`: the code the terminal shows, the machine that asked, the team
// its token is for; Approve mints it (within the member's role there), Deny spends the code.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { AuthCard } from "@/components/auth/auth-card";
import { errorMessage, useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/card";
import { Field, Select } from "@/components/ui/field";

export function CliLoginApproval({ code }: { code: string }) {
  const trpc = useTRPC();
  const login = useQuery({ ...trpc["cli-login"].get.queryOptions({ code }), retry: false });
  const teams = useQuery(trpc.teams.mine.queryOptions());
  const approve = useMutation(trpc["cli-login"].approve.mutationOptions());
  const deny = useMutation(trpc["cli-login"].deny.mutationOptions());
  const [team, setTeam] = useState("");
  const chosen = team || teams.data?.[0]?.slug || "";

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    approve.mutate({ code, teamSlug: chosen });
  }

  if (approve.data)
    return (
      <AuthCard title="Command line logged in">
        <p data-testid="cli-login-approved" className="text-sm">
          The CLI with the code <strong>{approve.data.code}</strong> now has a token for{" "}
          <strong>{approve.data.team.name}</strong> ({approve.data.actions.join(", ")}). You can close this page; the
          token is listed under the team's Tokens.
        </p>
      </AuthCard>
    );
  if (deny.data)
    return (
      <AuthCard title="Login denied">
        <p data-testid="cli-login-denied" className="text-sm">
          The code {deny.data.code} is spent; that command line gets nothing.
        </p>
      </AuthCard>
    );
  const problem = login.error ?? approve.error ?? deny.error;
  const isPending = login.data?.status === "pending";
  return (
    <AuthCard
      title="Log in the command line"
      subtitle="Approve only a code you started yourself with agentfold login, on your own machine."
    >
      <p className="text-center font-mono text-3xl tracking-widest" data-testid="cli-login-code">
        {login.data?.code ?? code}
      </p>
      {login.data ? (
        <p className="text-sm text-zinc-500" data-testid="cli-login-machine">
          Asked by <strong>{login.data.hostname}</strong> at {new Date(login.data.createdAt).toLocaleTimeString()}
          {isPending ? "" : ` — this code is ${login.data.status}`}.
        </p>
      ) : null}
      {problem ? <ErrorNote testId="cli-login-error">{errorMessage(problem)}</ErrorNote> : null}
      {isPending ? (
        <form onSubmit={submit} className="space-y-4" aria-label="Approve the login">
          <Field label="Team" hint="The token acts for this team, with what your role there allows.">
            <Select data-testid="cli-login-team" value={chosen} onChange={(e) => setTeam(e.target.value)}>
              {(teams.data ?? []).map((t) => (
                <option key={t.slug} value={t.slug}>
                  {t.name} ({t.role})
                </option>
              ))}
            </Select>
          </Field>
          <div className="flex gap-3">
            <Button type="submit" data-testid="cli-login-approve" disabled={!chosen || approve.isPending}>
              Approve
            </Button>
            <Button variant="secondary" data-testid="cli-login-deny" onClick={() => deny.mutate({ code })}>
              Deny
            </Button>
          </div>
        </form>
      ) : null}
    </AuthCard>
  );
}
