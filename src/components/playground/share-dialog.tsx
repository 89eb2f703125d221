"use client";
// Share a playground: a token scoped to this agent (chat and read sessions only), and a link
// that carries it in the URL fragment — fragments never reach the server or its logs. Whoever
// opens the link chats as that token, in sessions of their own.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { CopyButton } from "@/components/dashboard/copy-button";
import { errorMessage, useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { Field, Select } from "@/components/ui/field";

const tokenFragment = "token=";

export function ShareButton({ slug }: { slug: string }) {
  const trpc = useTRPC();
  const located = useQuery(trpc.agents.locate.queryOptions({ slug }, { retry: false }));
  const create = useMutation(trpc.tokens.create.mutationOptions());
  const [isOpen, setOpen] = useState(false);
  const [days, setDays] = useState("7");
  const [link, setLink] = useState<string | null>(null);
  const team = located.data;
  if (!team || team.role === "viewer") return null;

  async function share() {
    const created = await create
      .mutateAsync({
        teamSlug: team!.teamSlug,
        name: `share ${slug}`,
        actions: ["sessions:write", "sessions:read", "agents:read"],
        agentSlugs: [slug],
        expiresInDays: Number(days),
      })
      .catch(() => null);
    if (created) setLink(`${window.location.origin}/${slug}/playground#${tokenFragment}${created.token}`);
  }

  return (
    <>
      <Button size="sm" variant="secondary" onClick={() => (setOpen(true), setLink(null))} data-testid="share">
        Share
      </Button>
      <Dialog open={isOpen} onClose={() => setOpen(false)} title={`Share ${slug}`}>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Creates a token of {team.teamName} that may only chat with <code className="font-mono">{slug}</code>, read its
          own sessions and see the agent. Revoke it under Tokens at any time.
        </p>
        <Field label="Link expires">
          <Select value={days} onChange={(event) => setDays(event.target.value)} data-testid="share-expires">
            <option value="1">in a day</option>
            <option value="7">in 7 days</option>
            <option value="30">in 30 days</option>
          </Select>
        </Field>
        {create.error ? <ErrorNote>{errorMessage(create.error)}</ErrorNote> : null}
        {link ? (
          <div className="flex items-center gap-2">
            <code
              className="flex-1 break-all rounded bg-zinc-100 px-2 py-1.5 font-mono text-xs dark:bg-zinc-800"
              data-testid="share-link"
            >
              {link}
            </code>
            <CopyButton text={link} />
          </div>
        ) : (
          <Button onClick={share} disabled={create.isPending} data-testid="share-create">
            Create link
          </Button>
        )}
      </Dialog>
    </>
  );
}

/** The token a shared link carries in its fragment, if any. */
export function sharedTokenInUrl(): string | undefined {
  const hash = window.location.hash.slice(1);
  return hash.startsWith(tokenFragment) ? decodeURIComponent(hash.slice(tokenFragment.length)) : undefined;
}

/** Moves a shared link's token into the token field's storage, then drops it from the address
 * bar so it is not copied along with the URL. Returns whether there was one. */
export function adoptSharedToken(storageKey: string): boolean {
  const token = sharedTokenInUrl();
  if (!token) return false;
  try {
    localStorage.setItem(storageKey, token);
  } catch {
    return false; // storage disabled: the fragment stays, and keeps working for this page
  }
  history.replaceState(null, "", window.location.pathname + window.location.search);
  return true;
}
