"use client";
// The composer's slash-command autocomplete: open while the text is a `/word…` line that matches
// something; arrows move, Enter or Tab chooses, Escape closes it (then Enter sends the text as a
// message, for a message that starts with "/").
import { type KeyboardEvent, useState } from "react";
import { type ChannelRoute, type SlashItem, slashMatches } from "./channel-routes";

export function useSlashMenu(text: string, routes: ChannelRoute[], onChoose: (item: SlashItem) => void) {
  const [highlight, setHighlight] = useState({ text, index: 0 });
  const [dismissedText, setDismissedText] = useState<string>();
  const items = dismissedText === text ? [] : slashMatches(text, routes);
  // A new text starts from the first item again.
  const index = highlight.text === text ? Math.min(highlight.index, Math.max(0, items.length - 1)) : 0;
  const move = (by: number) => setHighlight({ text, index: (index + by + items.length) % items.length });

  /** Handles the key when the menu is open; returns whether it did. */
  const onKeyDown = (event: KeyboardEvent): boolean => {
    if (items.length === 0 || event.nativeEvent.isComposing) return false;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") move(event.key === "ArrowDown" ? 1 : -1);
    else if ((event.key === "Enter" && !event.shiftKey) || event.key === "Tab") onChoose(items[index]!);
    else if (event.key === "Escape") setDismissedText(text);
    else return false;
    event.preventDefault();
    return true;
  };
  return { items, highlighted: index, onKeyDown, choose: onChoose };
}
