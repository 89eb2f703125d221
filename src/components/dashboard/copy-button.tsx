"use client";
import { useState } from "react";
import { Button } from "@/components/ui/button";

export function CopyButton({ text, label = "Copy", testId }: { text: string; label?: string; testId?: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      // Clipboard access denied (an insecure origin): the text is on screen to select by hand.
    }
  }
  return (
    <Button size="sm" variant="secondary" onClick={copy} data-testid={testId} aria-live="polite">
      {copied ? "Copied" : label}
    </Button>
  );
}
