"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { signIn } from "next-auth/react";
import { useRouter, useSearchParams } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/field";
import { useTRPC } from "@/components/trpc/provider";
import { AuthCard } from "./auth-card";

const pageErrors: Record<string, string> = {
  NoAccount: "There is no Agentfold account for that sign-in yet. Ask a team admin for an invite link.",
  SessionRequired: "Sign in to continue.",
};

export function SignInForm() {
  const trpc = useTRPC();
  const status = useQuery(trpc.auth.status.queryOptions());
  const router = useRouter();
  const params = useSearchParams();
  const next = params.get("next") ?? "/";
  const [error, setError] = useState<string | null>(() => {
    const code = params.get("error");
    return code ? (pageErrors[code] ?? decodeURIComponent(code)) : null;
  });
  const [isBusy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    const result = await signIn("credentials", {
      email: form.get("email"),
      password: form.get("password"),
      redirect: false,
    });
    setBusy(false);
    if (result?.ok) {
      router.push(next.startsWith("/") ? next : "/");
      router.refresh();
    } else {
      setError(result?.error ?? "sign-in failed; try again");
    }
  }

  return (
    <AuthCard title="Sign in" subtitle="Use the email and password of your Agentfold account.">
      {status.data?.isEmpty ? (
        <p className="rounded-md bg-indigo-50 px-3 py-2 text-sm text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200">
          Nobody has an account yet.{" "}
          <Link className="font-medium underline" href="/signup">
            Create the first account
          </Link>{" "}
          — it becomes the instance admin.
        </p>
      ) : null}
      <form onSubmit={submit} className="space-y-4" aria-label="Sign in">
        <Field label="Email">
          <Input name="email" type="email" autoComplete="email" required autoFocus data-testid="signin-email" />
        </Field>
        <Field label="Password">
          <Input
            name="password"
            type="password"
            autoComplete="current-password"
            required
            data-testid="signin-password"
          />
        </Field>
        {error ? <ErrorNote testId="signin-error">{error}</ErrorNote> : null}
        <Button type="submit" className="w-full" disabled={isBusy} data-testid="signin-submit">
          {isBusy ? "Signing in…" : "Sign in"}
        </Button>
      </form>
      {status.data?.providers.map((provider) => (
        <Button
          key={provider.id}
          variant="secondary"
          className="w-full"
          onClick={() => signIn(provider.id, { callbackUrl: next })}
        >
          Continue with {provider.name}
        </Button>
      ))}
    </AuthCard>
  );
}
