import { headers } from "next/headers";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { AppShell } from "@/components/shell/app-shell";
import { readSessionUserId } from "@/server/auth/dashboard-session";

export const dynamic = "force-dynamic";

export default async function TeamLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ team: string }>;
}) {
  const { team } = await params;
  if (!(await readSessionUserId(await headers())))
    redirect(`/signin?next=${encodeURIComponent(`/teams/${team}/agents`)}`);
  return <AppShell teamSlug={team}>{children}</AppShell>;
}
