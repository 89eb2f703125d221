import Link from "next/link";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { TokenField } from "./token-field";

type NavbarProps = {
  agentName: string;
  token: string;
  onTokenChange: (token: string) => void;
  isPanelOpen: boolean;
  onTogglePanel: () => void;
  onToggleSessions: () => void;
  toolbar?: ReactNode;
};

export function Navbar({
  agentName,
  token,
  onTokenChange,
  isPanelOpen,
  onTogglePanel,
  onToggleSessions,
  toolbar,
}: NavbarProps) {
  return (
    <header className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-zinc-200 bg-white px-4 py-2 dark:border-zinc-800 dark:bg-zinc-900">
      <Button
        variant="ghost"
        size="sm"
        className="md:hidden"
        aria-label="Show or hide the sessions list"
        onClick={onToggleSessions}
      >
        Sessions
      </Button>
      <Link href="/" className="text-sm font-semibold text-indigo-600 hover:underline dark:text-indigo-400">
        Agentfold
      </Link>
      <h1 className="min-w-0 flex-1 truncate font-semibold" data-testid="agent-name">
        {agentName} <span className="font-normal text-zinc-500">playground</span>
      </h1>
      <TokenField token={token} onChange={onTokenChange} />
      {toolbar}
      <Button
        variant={isPanelOpen ? "primary" : "secondary"}
        size="sm"
        data-testid="raw-toggle"
        aria-pressed={isPanelOpen}
        aria-controls="side-panel"
        onClick={onTogglePanel}
      >
        Inspect
      </Button>
    </header>
  );
}
