"use client";
// The instance admin opens a team; they become its owner and can invite people into it.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { errorMessage, useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/field";

export function NewTeamButton() {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [isOpen, setOpen] = useState(false);
  const create = useMutation(trpc.teams.create.mutationOptions());

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get("name") ?? "");
    const team = await create.mutateAsync({ name }).catch(() => null);
    if (!team) return;
    await queryClient.invalidateQueries({ queryKey: trpc.teams.mine.queryKey() });
    setOpen(false);
    router.push(`/teams/${team.slug}/members`);
  }

  return (
    <>
      <Button size="sm" variant="ghost" onClick={() => setOpen(true)} data-testid="new-team">
        New team
      </Button>
      <Dialog open={isOpen} onClose={() => setOpen(false)} title="New team">
        <form onSubmit={submit} className="space-y-4" aria-label="New team">
          <Field label="Name" hint="You become its owner; invite people from its Members page.">
            <Input name="name" required maxLength={80} data-testid="new-team-name" />
          </Field>
          {create.error ? <ErrorNote>{errorMessage(create.error)}</ErrorNote> : null}
          <Button type="submit" disabled={create.isPending}>
            Create team
          </Button>
        </form>
      </Dialog>
    </>
  );
}
