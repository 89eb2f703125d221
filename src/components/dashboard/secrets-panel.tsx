"use client";
// An agent's secrets, for admins: every name with when and by whom it was last set, the names the
// active version expects but lacks (highlighted), a form to set or rotate one, and removal with a
// confirmation. A value goes to the server once and is never shown again.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef, useState, type FormEvent } from "react";
import { errorMessage, useTRPC } from "@/components/trpc/provider";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, ErrorNote } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/field";

export function SecretsPanel({ teamSlug, slug }: { teamSlug: string; slug: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const secrets = useQuery(trpc.secrets.list.queryOptions({ teamSlug, slug }));
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.secrets.list.queryKey() }),
      // The Slack card shows which of its secrets are set.
      queryClient.invalidateQueries({ queryKey: trpc.slack.setup.queryKey() }),
    ]);
  const save = useMutation(trpc.secrets.set.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.secrets.remove.mutationOptions({ onSuccess: refresh }));
  const [name, setName] = useState("");
  const [saved, setSaved] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const valueInput = () => form.current?.elements.namedItem("value") as HTMLInputElement | null | undefined;

  const pick = (picked: string) => {
    setName(picked);
    setSaved(null);
    valueInput()?.focus();
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = valueInput()?.value ?? "";
    const result = await save.mutateAsync({ teamSlug, slug, name: name.trim(), value }).catch(() => null);
    if (!result) return;
    // The value leaves the page with the request: the field is emptied at once.
    form.current?.reset();
    setName("");
    setSaved(`${result.name} ${result.isNew ? "saved" : "rotated"}`);
  }

  async function confirmRemove() {
    if (!removing) return;
    await remove.mutateAsync({ teamSlug, slug, name: removing }).catch(() => null);
    setRemoving(null);
  }

  const data = secrets.data;
  return (
    <Card aria-label="Secrets" data-testid="secrets">
      <h2 className="font-semibold">Secrets</h2>
      <p className="mt-1 text-sm text-zinc-500">
        Given to the agent&apos;s sandbox as environment variables (read{" "}
        <code className="font-mono">process.env.NAME</code> inside a tool or hook). Values are encrypted and never shown
        again.
      </p>
      {secrets.error ? (
        <div className="mt-2">
          <ErrorNote>{errorMessage(secrets.error)}</ErrorNote>
        </div>
      ) : null}
      {data && data.missing.length > 0 ? (
        <div
          role="status"
          className="mt-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200"
          data-testid="secrets-missing"
        >
          The active version expects {data.missing.length === 1 ? "a secret that is" : "secrets that are"} not set:
          <span className="ml-1 inline-flex flex-wrap gap-1.5">
            {data.missing.map((missing) => (
              <button
                key={missing}
                type="button"
                className="rounded bg-amber-100 px-1.5 font-mono font-medium hover:bg-amber-200 dark:bg-amber-900"
                onClick={() => pick(missing)}
                data-testid={`secret-missing-${missing}`}
                title={`Set ${missing}`}
              >
                {missing}
              </button>
            ))}
          </span>
        </div>
      ) : null}
      {data && data.secrets.length > 0 ? (
        <ul className="mt-3 divide-y divide-zinc-100 dark:divide-zinc-800" data-testid="secret-list">
          {data.secrets.map((secret) => (
            <li
              key={secret.name}
              className="flex flex-wrap items-center gap-3 py-2 text-sm"
              data-testid={`secret-${secret.name}`}
            >
              <code className="font-mono font-medium">{secret.name}</code>
              {secret.isDeclared ? null : <Badge tone="neutral">not used by the active version</Badge>}
              <span className="text-zinc-500" data-testid="secret-changed">
                changed {new Date(secret.updatedAt).toLocaleString()}
                {secret.updatedBy ? ` by ${secret.updatedBy}` : ""}
              </span>
              <span className="ml-auto flex gap-2">
                <Button size="sm" variant="secondary" onClick={() => pick(secret.name)} data-testid="secret-rotate">
                  Rotate
                </Button>
                <Button size="sm" variant="ghost" onClick={() => setRemoving(secret.name)} data-testid="secret-remove">
                  Remove
                </Button>
              </span>
            </li>
          ))}
        </ul>
      ) : data ? (
        <p className="mt-3 text-sm text-zinc-400">No secrets set.</p>
      ) : null}
      <form
        ref={form}
        onSubmit={submit}
        className="mt-4 grid gap-3 sm:grid-cols-[1fr_2fr_auto] sm:items-end"
        aria-label="Set a secret"
      >
        <Field label="Name">
          <Input
            name="name"
            required
            value={name}
            onChange={(event) => setName(event.target.value)}
            placeholder="API_KEY"
            pattern="[A-Za-z_][A-Za-z0-9_]*"
            title="letters, digits and _, not starting with a digit"
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            list="secret-names"
            data-testid="secret-name"
          />
        </Field>
        <datalist id="secret-names">
          {data?.declared.map((declared) => (
            <option key={declared} value={declared} />
          ))}
        </datalist>
        <Field label="Value">
          <Input name="value" type="password" required autoComplete="new-password" data-testid="secret-value" />
        </Field>
        <Button type="submit" disabled={save.isPending} data-testid="secret-save">
          Save secret
        </Button>
      </form>
      {save.error ? (
        <div className="mt-2">
          <ErrorNote testId="secret-error">{errorMessage(save.error)}</ErrorNote>
        </div>
      ) : null}
      {saved && !save.error ? (
        <p role="status" className="mt-2 text-sm text-emerald-700 dark:text-emerald-400" data-testid="secret-saved">
          {saved}
        </p>
      ) : null}
      <Dialog open={removing !== null} onClose={() => setRemoving(null)} title="Remove this secret?">
        <p className="text-sm">
          Remove <code className="font-mono font-medium">{removing}</code>? Sandboxes started from now on will not have
          it; the value cannot be recovered.
        </p>
        {remove.error ? <ErrorNote>{errorMessage(remove.error)}</ErrorNote> : null}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setRemoving(null)}>
            Cancel
          </Button>
          <Button
            variant="danger"
            disabled={remove.isPending}
            onClick={() => void confirmRemove()}
            data-testid="secret-remove-confirm"
          >
            Remove
          </Button>
        </div>
      </Dialog>
    </Card>
  );
}
