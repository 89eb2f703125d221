"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { signIn } from "next-auth/react";
import { useRouter, useSearchParams } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/field";
import { errorMessage, useTRPC } from "@/components/trpc/provider";
import { AuthCard } from "./auth-card";

export function SignUpForm() {
  const trpc = useTRPC();
  const router = useRouter();
  const inviteToken = useSearchParams().get("invite") ?? undefined;
  const status = useQuery(trpc.auth.status.queryOptions());
  const invite = useQuery({
    ...trpc.teams.inviteInfo.queryOptions({ token: inviteToken ?? "" }),
    enabled: Boolean(inviteToken),
  });
  const signUp = useMutation(trpc.auth.signUp.mutationOptions());
  const accept = useMutation(
    trpc.teams.acceptInvite.mutationOptions({ onSuccess: (joined) => router.push(`/teams/${joined.teamSlug}/agents`) }),
  );
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    const form = new FormData(event.currentTarget);
    const email = String(form.get("email") ?? "");
    const password = String(form.get("password") ?? "");
    try {
      await signUp.mutateAsync({
        email,
        password,
        name: String(form.get("name") ?? "") || undefined,
        teamName: String(form.get("teamName") ?? "") || undefined,
        inviteToken,
      });
    } catch (failure) {
      setError(errorMessage(failure));
      return;
    }
    const result = await signIn("credentials", { email, password, redirect: false });
    if (!result?.ok) {
      setError(`Your account was created, but signing in failed: ${result?.error ?? "try again"}.`);
      return;
    }
    router.push("/");
    router.refresh();
  }

  if (status.isPending || (inviteToken && invite.isPending))
    return <AuthCard title="Create an account">Loading…</AuthCard>;
  const isFirst = status.data?.isEmpty === true;
  const openInvite = invite.data?.isOpen ? invite.data : undefined;
  if (!isFirst && !openInvite) {
    return (
      <AuthCard title="Create an account">
        <ErrorNote testId="signup-closed">
          {inviteToken
            ? "This invite link is not valid any more (used, revoked or expired)."
            : "Accounts are created from invite links."}{" "}
          Ask a team admin for a new invite, or{" "}
          <Link className="underline" href="/signin">
            sign in
          </Link>{" "}
          if you have an account.
        </ErrorNote>
      </AuthCard>
    );
  }
  if (openInvite && status.data?.isSignedIn) {
    return (
      <AuthCard title={`Join ${openInvite.teamName}`} subtitle={`You are invited as ${openInvite.role}.`}>
        {accept.error ? <ErrorNote>{errorMessage(accept.error)}</ErrorNote> : null}
        <Button
          className="w-full"
          disabled={accept.isPending}
          onClick={() => accept.mutate({ token: inviteToken! })}
          data-testid="accept-invite"
        >
          Join {openInvite.teamName}
        </Button>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title={isFirst ? "Create the first account" : `Join ${openInvite!.teamName}`}
      subtitle={
        isFirst
          ? "It becomes the instance admin and the owner of your first team."
          : `You are invited as ${openInvite!.role}.`
      }
    >
      <form onSubmit={submit} className="space-y-4" aria-label="Create an account">
        <Field label="Name">
          <Input name="name" autoComplete="name" data-testid="signup-name" />
        </Field>
        <Field label="Email">
          <Input
            name="email"
            type="email"
            autoComplete="email"
            required
            defaultValue={openInvite?.email ?? ""}
            data-testid="signup-email"
          />
        </Field>
        <Field label="Password" hint="At least 10 characters.">
          <Input
            name="password"
            type="password"
            autoComplete="new-password"
            required
            minLength={10}
            data-testid="signup-password"
          />
        </Field>
        {isFirst ? (
          <Field label="Team name" hint="You can add more teams later.">
            <Input name="teamName" placeholder="Acme" data-testid="signup-team" />
          </Field>
        ) : null}
        {error ? <ErrorNote testId="signup-error">{error}</ErrorNote> : null}
        <Button type="submit" className="w-full" disabled={signUp.isPending} data-testid="signup-submit">
          {signUp.isPending ? "Creating…" : "Create account"}
        </Button>
      </form>
      <p className="text-sm text-zinc-500">
        Have an account?{" "}
        <Link
          className="underline"
          href={inviteToken ? `/signin?next=${encodeURIComponent(`/signup?invite=${inviteToken}`)}` : "/signin"}
        >
          Sign in
        </Link>
      </p>
    </AuthCard>
  );
}
