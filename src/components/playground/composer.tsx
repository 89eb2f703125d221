"use client";
import { useId, useState, type FormEvent, type KeyboardEvent } from "react";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/field";

type ComposerProps = {
  isTurnActive: boolean;
  isDisabled: boolean;
  disabledReason?: string;
  onSend: (message: string) => Promise<boolean>;
  onStop: () => Promise<void>;
};

/** Enter sends, Shift+Enter starts a new line. Sending while a turn runs preempts it (the API's default). */
export function Composer({ isTurnActive, isDisabled, disabledReason, onSend, onStop }: ComposerProps) {
  const [text, setText] = useState("");
  const [isSending, setIsSending] = useState(false);
  const [isStopping, setIsStopping] = useState(false);
  const hintId = useId();
  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    const message = text.trim();
    if (!message || isSending || isDisabled) return;
    setIsSending(true);
    try {
      if (await onSend(message)) setText("");
    } finally {
      setIsSending(false);
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };
  const stop = async () => {
    setIsStopping(true);
    try {
      await onStop();
    } finally {
      setIsStopping(false);
    }
  };
  return (
    <form
      onSubmit={send}
      className="space-y-1 border-t border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="flex items-end gap-2">
        <Textarea
          data-testid="composer"
          aria-label="Message"
          aria-describedby={hintId}
          rows={2}
          value={text}
          disabled={isDisabled}
          placeholder={isDisabled ? "" : "Message the agent…"}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          className="min-h-[2.75rem] flex-1 resize-y"
        />
        {isTurnActive ? (
          <Button
            data-testid="stop"
            variant="danger"
            disabled={isStopping}
            onClick={stop}
            aria-label="Stop the running turn"
          >
            {isStopping ? "Stopping…" : "Stop"}
          </Button>
        ) : null}
        <Button type="submit" data-testid="send" disabled={isDisabled || isSending || !text.trim()}>
          {isSending ? "Sending…" : "Send"}
        </Button>
      </div>
      <p id={hintId} className="text-xs text-zinc-500">
        {disabledReason ?? "Enter sends, Shift+Enter adds a line. Sending while a turn runs interrupts it."}
      </p>
    </form>
  );
}
