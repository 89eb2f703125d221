"use client";
// The dashboard frame: brand, team switcher, sections, and the signed-in user with sign out.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { signOut } from "next-auth/react";
import { usePathname, useRouter } from "next/navigation";
import type { ReactNode } from "react";
import { useTRPC } from "@/components/trpc/provider";
import { cn } from "@/components/ui/cn";
import { NewTeamButton } from "./new-team";

const sections = [
  { path: "agents", label: "Agents" },
  { path: "approvals", label: "Approvals" },
  { path: "tokens", label: "Tokens" },
  { path: "members", label: "Members" },
] as const;

export function AppShell({ teamSlug: pageTeam, children }: { teamSlug?: string; children: ReactNode }) {
  const trpc = useTRPC();
  const teams = useQuery(trpc.teams.mine.queryOptions());
  const me = useQuery(trpc.teams.me.queryOptions());
  // Pages outside a team (home) link to the first team's sections.
  const teamSlug = pageTeam ?? teams.data?.[0]?.slug;
  const pathname = usePathname();
  const router = useRouter();
  const section = pageTeam ? (pathname.split("/")[3] ?? "agents") : undefined;
  return (
    <div className="min-h-screen">
      <header className="border-b border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
        <nav aria-label="Main" className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
          <Link href="/" className="font-semibold tracking-tight">
            Agentfold
          </Link>
          {teams.data && teams.data.length > 0 ? (
            <label className="flex items-center gap-2 text-sm">
              <span className="sr-only">Team</span>
              <select
                data-testid="team-switcher"
                value={teamSlug ?? ""}
                onChange={(event) => router.push(`/teams/${event.target.value}/${section ?? "agents"}`)}
                className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900"
              >
                {teams.data.map((team) => (
                  <option key={team.slug} value={team.slug}>
                    {team.name} ({team.role})
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          {teamSlug ? (
            <ul className="flex gap-1 text-sm">
              {sections.map((item) => (
                <li key={item.path}>
                  <Link
                    href={`/teams/${teamSlug}/${item.path}`}
                    aria-current={section === item.path ? "page" : undefined}
                    className={cn(
                      "rounded-md px-2.5 py-1.5",
                      section === item.path
                        ? "bg-zinc-100 font-medium dark:bg-zinc-800"
                        : "text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100",
                    )}
                  >
                    {item.label}
                  </Link>
                </li>
              ))}
            </ul>
          ) : null}
          <span className="ml-auto flex items-center gap-3 text-sm text-zinc-500">
            {me.data?.isInstanceAdmin ? <NewTeamButton /> : null}
            <span data-testid="signed-in-as">{me.data?.name ?? me.data?.email}</span>
          </span>
          <button
            type="button"
            onClick={() => signOut({ callbackUrl: "/signin" })}
            className=" text-sm text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"
            data-testid="sign-out"
          >
            Sign out
          </button>
        </nav>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-8">{children}</main>
    </div>
  );
}

/** The team the page is about, with the caller's role there (undefined while loading). */
export function useTeam(teamSlug: string) {
  const trpc = useTRPC();
  const teams = useQuery(trpc.teams.mine.queryOptions());
  return teams.data?.find((team) => team.slug === teamSlug);
}
