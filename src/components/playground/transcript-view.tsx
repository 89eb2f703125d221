"use client";
import type { Decide } from "./approval-panel";
import { ArtifactCard } from "./artifact-card";
import { ConnectionCard } from "./connection-card";
import { ToolChip } from "./tool-chip";
import type { Transcript, TranscriptItem } from "./transcript";
import { pendingApprovals, pendingConnections, transcriptBlocks } from "./transcript-view-model";
import { TurnStatusLine } from "./turn-status";

export function TranscriptView({ transcript, onDecide }: { transcript: Transcript; onDecide: Decide }) {
  const blocks = transcriptBlocks(transcript);
  const awaiting = new Set(pendingApprovals(transcript).map((call) => call.turnId));
  const connecting = new Map(pendingConnections(transcript).map((wait) => [wait.turnId, wait.auth.connection]));
  return (
    <div className="space-y-3">
      {blocks.map((block) =>
        block.kind === "turn" ? (
          <TurnStatusLine
            key={block.key}
            turn={block.turn}
            isAwaitingApproval={awaiting.has(block.turn.turnId)}
            awaitingConnection={connecting.get(block.turn.turnId)}
          />
        ) : (
          <Item key={block.item.key} item={block.item} transcript={transcript} onDecide={onDecide} />
        ),
      )}
    </div>
  );
}

function Item({ item, transcript, onDecide }: { item: TranscriptItem; transcript: Transcript; onDecide: Decide }) {
  switch (item.kind) {
    case "user":
      return (
        <div
          data-testid="message-user"
          className="ml-auto w-fit max-w-[85%] rounded-2xl bg-indigo-600 px-4 py-2 text-sm whitespace-pre-wrap text-white"
        >
          {item.isNudge ? (
            <span className="mb-1 block text-xs text-indigo-200">Steered into the running turn</span>
          ) : null}
          {item.text || "(a follow-up without text)"}
        </div>
      );
    case "assistant":
      return (
        <div
          data-testid="message-assistant"
          data-complete={item.isComplete}
          className="max-w-[85%] rounded-2xl bg-white px-4 py-2 text-sm whitespace-pre-wrap shadow-sm dark:bg-zinc-900"
        >
          {item.text}
        </div>
      );
    case "reasoning":
      return (
        <details data-testid="reasoning" open={!item.isComplete} className="max-w-[85%] text-sm text-zinc-500">
          <summary className="cursor-pointer text-xs font-medium">
            {item.isComplete ? "Reasoning" : "Reasoning…"}
          </summary>
          <p className="mt-1 border-l-2 border-zinc-200 pl-3 whitespace-pre-wrap italic dark:border-zinc-700">
            {item.text}
          </p>
        </details>
      );
    case "tool": {
      const call = transcript.calls[item.callId];
      return call ? <ToolChip call={call} calls={transcript.calls} onDecide={onDecide} /> : null;
    }
    case "artifact":
      return <ArtifactCard artifact={item.artifact} />;
    case "connection":
      return <ConnectionCard auth={item.auth} />;
  }
}
