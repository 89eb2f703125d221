"use client";
// The agent's logs (GET /<slug>/v1/logs): what its tools, hooks, schedules and channels printed
// and the platform's notes about it, newest at the bottom, following new lines live. Shown in the
// playground's side panel and on the dashboard's agent page.
import { useEffect, useRef, useState } from "react";
import { cn } from "@/components/ui/cn";
import { logSources } from "@/shared/log-lines";
import type { ApiClient } from "./api-client";
import type { LogFilters, LogLine } from "./logs-model";
import { useAgentLogs } from "./use-agent-logs";

const levelStyle: Record<LogLine["level"], string> = {
  debug: "text-zinc-400",
  info: "text-sky-600 dark:text-sky-400",
  warn: "text-amber-600 dark:text-amber-400",
  error: "text-red-600 dark:text-red-400",
};

function FilterSelect<T extends string>(props: {
  label: string;
  testId: string;
  value: T | undefined;
  onChange: (value: T | undefined) => void;
  options: readonly (readonly [T | "", string])[];
}) {
  return (
    <select
      aria-label={props.label}
      data-testid={props.testId}
      className="rounded-md border border-zinc-300 bg-white px-1.5 py-1 text-xs dark:border-zinc-700 dark:bg-zinc-900"
      value={props.value ?? ""}
      onChange={(event) => props.onChange((event.target.value || undefined) as T | undefined)}
    >
      {props.options.map(([value, text]) => (
        <option key={value} value={value}>
          {text}
        </option>
      ))}
    </select>
  );
}

export function LogsPanel({
  client,
  sessionId,
  onOpenSession,
}: {
  client: ApiClient;
  /** The session on screen: the panel can narrow to it. */
  sessionId?: string;
  onOpenSession?: (sessionId: string) => void;
}) {
  const [level, setLevel] = useState<LogFilters["level"]>();
  const [source, setSource] = useState<LogFilters["source"]>();
  const [isThisSession, setIsThisSession] = useState(false);
  const [isFollowing, setIsFollowing] = useState(true);
  const session = isThisSession ? sessionId : undefined;
  const logs = useAgentLogs(client, { level, source, session }, isFollowing);
  const bottom = useRef<HTMLLIElement>(null);
  // New lines scroll into view while following.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new line is the trigger.
  useEffect(() => {
    if (isFollowing) bottom.current?.scrollIntoView({ block: "end" });
  }, [logs.lines.length, isFollowing]);

  return (
    <section data-testid="logs-panel" aria-label="Logs" className="flex h-full min-h-0 flex-col">
      <div className="flex flex-wrap items-center gap-2 border-b border-zinc-200 px-3 py-2 text-xs dark:border-zinc-800">
        <FilterSelect
          label="Level"
          testId="logs-level"
          value={level}
          onChange={setLevel}
          options={[
            ["", "All levels"],
            ["info", "Info and up"],
            ["warn", "Warnings and errors"],
            ["error", "Errors"],
          ]}
        />
        <FilterSelect
          label="Source"
          testId="logs-source"
          value={source}
          onChange={setSource}
          options={[["", "All sources"], ...logSources.map((name) => [name, name] as const)]}
        />
        {sessionId ? (
          <label className="flex items-center gap-1">
            <input
              type="checkbox"
              data-testid="logs-this-session"
              checked={isThisSession}
              onChange={(event) => setIsThisSession(event.target.checked)}
            />
            This session
          </label>
        ) : null}
        <label className="ml-auto flex items-center gap-1" title="Poll for new lines every second">
          <input
            type="checkbox"
            data-testid="logs-follow"
            checked={isFollowing}
            onChange={(event) => setIsFollowing(event.target.checked)}
          />
          Follow
        </label>
      </div>
      {logs.error ? (
        <p role="alert" data-testid="logs-error" className="px-3 py-2 text-xs text-red-600 dark:text-red-400">
          {logs.error}
        </p>
      ) : null}
      {!logs.isLoading && logs.lines.length === 0 ? (
        <p data-testid="logs-empty" className="p-3 text-sm text-zinc-500">
          No log lines yet. What the agent's tools, hooks, schedules and channels print (console.log, errors) shows here
          within a second.
        </p>
      ) : (
        <ol className="min-h-0 flex-1 overflow-auto p-2 font-mono text-[11px] leading-relaxed">
          {logs.lines.map((line) => (
            <li
              key={line.id}
              data-testid="log-line"
              data-level={line.level}
              data-source={line.source}
              className="border-b border-zinc-100 py-0.5 dark:border-zinc-900"
            >
              <time dateTime={line.at} className="text-zinc-400" title={line.at}>
                {line.at.slice(11, 23)}
              </time>{" "}
              <span className={cn("font-semibold uppercase", levelStyle[line.level])}>{line.level}</span>{" "}
              <span className="text-zinc-500">
                {line.source}
                {line.name ? ` ${line.name}` : ""}
              </span>{" "}
              {line.sessionId && onOpenSession && line.sessionId !== sessionId ? (
                <button
                  type="button"
                  className="text-indigo-600 underline dark:text-indigo-400"
                  onClick={() => onOpenSession(line.sessionId!)}
                >
                  {line.sessionId}
                </button>
              ) : null}
              <span data-testid="log-message" className="block whitespace-pre-wrap break-all">
                {line.message}
              </span>
            </li>
          ))}
          <li ref={bottom} aria-hidden />
        </ol>
      )}
    </section>
  );
}
