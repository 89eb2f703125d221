"use client";
import { useEffect, useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/field";

/** The bearer token for remote use; saved on Enter or when the field loses focus. */
export function TokenField({ token, onChange }: { token: string; onChange: (token: string) => void }) {
  const [draft, setDraft] = useState(token);
  const id = useId();
  useEffect(() => setDraft(token), [token]);
  const save = (event?: FormEvent) => {
    event?.preventDefault();
    if (draft.trim() !== token) onChange(draft);
  };
  return (
    <form onSubmit={save} className="flex items-center gap-2">
      <label htmlFor={id} className="text-xs font-medium text-zinc-600 dark:text-zinc-400">
        Token
      </label>
      <Input
        id={id}
        data-testid="token-field"
        type="password"
        autoComplete="off"
        spellCheck={false}
        placeholder="af_… (optional when signed in)"
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={() => save()}
        className="w-40 py-1 sm:w-56"
      />
      {token ? (
        <Button variant="ghost" size="sm" aria-label="Forget the token" onClick={() => onChange("")}>
          Clear
        </Button>
      ) : null}
    </form>
  );
}
