// The JSON shape of a session in list and state responses.
import type { SessionSummary } from "./schema";

type Row = {
  id: string;
  title: string | null;
  channelId: string;
  mode: SessionSummary["mode"];
  status: SessionSummary["status"];
  purpose: SessionSummary["purpose"];
  dryRun: boolean;
  nextIndex: number;
  createdAt: Date;
  updatedAt: Date;
  agentVersion: { number: number };
};

export function describeSession(row: Row): SessionSummary {
  return {
    id: row.id,
    title: row.title,
    channelId: row.channelId,
    mode: row.mode,
    status: row.status,
    purpose: row.purpose,
    dryRun: row.dryRun,
    agentVersion: row.agentVersion.number,
    eventCount: row.nextIndex,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
