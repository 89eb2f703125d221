import Link from "next/link";
import type { ReactNode } from "react";

/** The frame of the sign-in and sign-up pages. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <main className="mx-auto flex min-h-screen max-w-sm flex-col justify-center px-6 py-12">
      <Link href="/" className="mb-8 text-lg font-semibold tracking-tight">
        Agentfold
      </Link>
      <h1 className="text-2xl font-semibold tracking-tight" data-testid="auth-title">
        {title}
      </h1>
      {subtitle ? <p className="mt-2 text-sm text-zinc-500">{subtitle}</p> : null}
      <div className="mt-6 space-y-4">{children}</div>
    </main>
  );
}
