"use client";
import { Dialog } from "@/components/ui/dialog";
import { CopyButton } from "./copy-button";

/** A new token, shown once, with a request that works as it is. */
export function CreatedToken({ token, slug, onClose }: { token: string | null; slug?: string; onClose: () => void }) {
  // Only while a token is shown (never during the server render, which has no window).
  const origin = token === null ? "" : window.location.origin;
  const curl =
    token === null
      ? ""
      : slug
        ? `curl -s -X POST ${origin}/${slug}/v1/session \\\n  -H "authorization: Bearer ${token}" \\\n  -H "content-type: application/json" \\\n  -d '{"message":"Hello"}'`
        : `curl -s ${origin}/v1/agents -H "authorization: Bearer ${token}"`;
  return (
    <Dialog open={token !== null} onClose={onClose} title="Your new token">
      <p className="text-sm text-amber-700 dark:text-amber-400">Copy it now: it is shown only once.</p>
      <div className="flex items-center gap-2">
        <code
          className="flex-1 break-all rounded bg-zinc-100 px-2 py-1.5 font-mono text-xs dark:bg-zinc-800"
          data-testid="created-token"
        >
          {token}
        </code>
        <CopyButton text={token ?? ""} testId="copy-token" />
      </div>
      <div>
        <div className="mb-1 flex items-center justify-between">
          <span className="text-sm font-medium">Try it</span>
          <CopyButton text={curl} label="Copy curl" />
        </div>
        <pre
          className="overflow-x-auto rounded bg-zinc-900 p-3 font-mono text-xs text-zinc-100"
          data-testid="token-curl"
        >
          {curl}
        </pre>
      </div>
    </Dialog>
  );
}
