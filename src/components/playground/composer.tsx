"use client";
import { useId, useState, type FormEvent, type KeyboardEvent } from "react";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/field";
import type { ChannelRoute, SlashItem } from "./channel-routes";
import { SlashMenu } from "./slash-menu";
import { useSlashMenu } from "./use-slash-menu";

type ComposerProps = {
  isTurnActive: boolean;
  isDisabled: boolean;
  disabledReason?: string;
  onSend: (message: string) => Promise<boolean>;
  onStop: () => Promise<void>;
  /** Channel routes offered as slash commands (those without path parameters). */
  routes: ChannelRoute[];
  onCommand: (item: SlashItem) => void;
};

/** Enter sends, Shift+Enter starts a new line. Sending while a turn runs preempts it (the API's default).
 * A line starting with "/" opens the slash-command menu. */
export function Composer(props: ComposerProps) {
  const { isTurnActive, isDisabled, disabledReason, onSend, onStop, routes, onCommand } = props;
  const [text, setText] = useState("");
  const [isSending, setIsSending] = useState(false);
  const [isStopping, setIsStopping] = useState(false);
  const hintId = useId();
  const menuId = useId();
  const menu = useSlashMenu(text, routes, (item) => (setText(""), onCommand(item)));
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
    if (menu.onKeyDown(event)) return;
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
      {menu.items.length > 0 ? (
        <SlashMenu id={menuId} items={menu.items} highlighted={menu.highlighted} onChoose={menu.choose} />
      ) : null}
      <div className="flex items-end gap-2">
        <Textarea
          data-testid="composer"
          aria-label="Message"
          aria-describedby={hintId}
          aria-controls={menu.items.length > 0 ? menuId : undefined}
          aria-activedescendant={menu.items.length > 0 ? `${menuId}-${menu.highlighted}` : undefined}
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
        {disabledReason ??
          "Enter sends, Shift+Enter adds a line. Sending while a turn runs interrupts it. / lists commands."}
      </p>
    </form>
  );
}
