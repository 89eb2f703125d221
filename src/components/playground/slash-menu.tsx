import { cn } from "@/components/ui/cn";
import { type SlashItem, slashLabel } from "./channel-routes";

type Props = { id: string; items: SlashItem[]; highlighted: number; onChoose: (item: SlashItem) => void };

/** The composer's autocomplete for `/`: /help, then the channel routes that are commands. */
export function SlashMenu({ id, items, highlighted, onChoose }: Props) {
  return (
    <div
      id={id}
      role="listbox"
      aria-label="Slash commands"
      data-testid="slash-menu"
      className="mb-2 max-h-60 overflow-y-auto rounded-md border border-zinc-200 bg-white py-1 text-sm shadow-sm dark:border-zinc-700 dark:bg-zinc-900"
    >
      {items.map((item, index) => (
        <div
          key={slashLabel(item)}
          id={`${id}-${index}`}
          role="option"
          // The textarea keeps the focus (aria-activedescendant points here); a click still works.
          tabIndex={-1}
          aria-selected={index === highlighted}
          data-testid="slash-item"
          data-command={slashLabel(item)}
          // mousedown, not click: the textarea must keep its focus.
          onMouseDown={(event) => (event.preventDefault(), onChoose(item))}
          className={cn(
            "flex cursor-pointer items-baseline gap-2 px-3 py-1.5",
            index === highlighted && "bg-indigo-50 dark:bg-indigo-950",
          )}
        >
          <code className="font-mono">{slashLabel(item)}</code>
          <span className="truncate text-xs text-zinc-500">
            {item.kind === "help" ? "List the agent's channel routes" : item.route.description}
          </span>
        </div>
      ))}
    </div>
  );
}
