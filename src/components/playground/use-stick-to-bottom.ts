"use client";
import { useCallback, useEffect, useRef } from "react";

/**
 * Keeps a scroller at its bottom as content grows, unless the reader scrolled up: whether to
 * follow is decided when they scroll, not after new content already moved the bottom away.
 */
export function useStickToBottom<T extends HTMLElement>(change: unknown) {
  const ref = useRef<T>(null);
  const isPinned = useRef(true);
  const onScroll = useCallback(() => {
    const el = ref.current;
    if (el) isPinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `change` is the trigger: new content means scroll.
  useEffect(() => {
    const el = ref.current;
    if (el && isPinned.current) el.scrollTop = el.scrollHeight;
  }, [change]);
  return { ref, onScroll };
}
