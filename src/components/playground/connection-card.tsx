"use client";
import { cn } from "@/components/ui/cn";
import type { ConnectionAuth } from "./transcript";

// The primary Button's look on a link: Connect opens the provider's page in a new tab.
const linkButton =
  "inline-flex items-center justify-center gap-1.5 rounded-md px-3.5 py-2 text-sm font-medium transition-colors " +
  "bg-indigo-600 text-white hover:bg-indigo-500";

const outcomeLabel: Record<Exclude<ConnectionAuth["status"], "pending">, string> = {
  connected: "Connected",
  expired: "Not connected in time",
  cancelled: "Cancelled",
};

/** A connection the turn waits for: Connect and its deadline, then how the wait ended. */
export function ConnectionCard({ auth }: { auth: ConnectionAuth }) {
  const isPending = auth.status === "pending";
  return (
    <div
      data-testid="connection-auth"
      data-connection={auth.connection}
      data-status={auth.status}
      className={cn(
        "space-y-2 rounded-lg border p-3 text-sm",
        isPending
          ? "border-amber-300 bg-amber-50 dark:border-amber-800 dark:bg-amber-950/40"
          : "border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900",
      )}
    >
      <p className="font-medium">
        <span className="font-mono">{auth.connection}</span> needs you to connect
      </p>
      {isPending && auth.authorizeUrl ? (
        <div className="flex flex-wrap items-center gap-3">
          <a
            data-testid="connect"
            href={auth.authorizeUrl}
            target="_blank"
            rel="noopener"
            aria-label={`Connect ${auth.connection}`}
            className={linkButton}
          >
            Connect
          </a>
          {auth.expiresAt ? (
            <span className="text-xs text-zinc-600 dark:text-zinc-400">
              The turn waits until{" "}
              <time dateTime={auth.expiresAt}>{new Date(auth.expiresAt).toLocaleTimeString()}</time>.
            </span>
          ) : null}
        </div>
      ) : null}
      {auth.status !== "pending" ? (
        <p
          data-testid="connection-auth-outcome"
          data-outcome={auth.status}
          className={cn(
            "text-xs",
            auth.status === "connected" ? "text-emerald-700 dark:text-emerald-300" : "text-zinc-600 dark:text-zinc-400",
          )}
        >
          {outcomeLabel[auth.status]}
          {auth.resolvedAt ? (
            <>
              {" "}
              at <time dateTime={auth.resolvedAt}>{new Date(auth.resolvedAt).toLocaleString()}</time>
            </>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}
