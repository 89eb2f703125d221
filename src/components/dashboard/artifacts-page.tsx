"use client";
// An agent's artifacts, from the same /v1 routes a script would use (artifacts:read, viewers and
// up): newest updated first a page at a time, filtered by kind on the server and by key or title
// over the loaded pages; each record with its data, its session and a download.
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo, useState } from "react";
import type { ArtifactRecord } from "@/agents/sdk/types";
import { createApiClient } from "@/components/playground/api-client";
import { ArtifactDataView } from "@/components/playground/artifact-data-view";
import { errorMessage } from "@/components/trpc/provider";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, ErrorNote } from "@/components/ui/card";
import { Field, Input, Select } from "@/components/ui/field";
import type { ArtifactList } from "@/server/artifacts/schema";
import { ageOf } from "./age-of";
import { kindChoices, matchingArtifacts } from "./artifact-filter";

const pageSize = 25;

type Info = { agent: { name?: string; artifactKinds?: { kind: string; description: string }[] } };

function artifactPath(slug: string, record: ArtifactRecord): string {
  return `/${encodeURIComponent(slug)}/v1/artifacts/${encodeURIComponent(record.kind)}/${encodeURIComponent(record.key)}`;
}

function ArtifactItem({ slug, record }: { slug: string; record: ArtifactRecord }) {
  return (
    <li
      className="space-y-2 py-4"
      data-testid="artifact"
      data-kind={record.kind}
      data-key={record.key}
      data-session-id={record.sessionId}
    >
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Badge tone="info">{record.kind}</Badge>
        <span className="font-medium" data-testid="artifact-title">
          {record.title ?? record.key}
        </span>
        {record.title ? <code className="font-mono text-xs text-zinc-500">{record.key}</code> : null}
        <span className="text-xs text-zinc-500" title={new Date(record.updatedAt).toLocaleString()}>
          updated {ageOf(record.updatedAt)} ago
        </span>
        <span className="ml-auto flex gap-3 text-xs">
          {record.sessionId ? (
            <Link
              className="underline"
              href={`/${slug}/playground?sessionId=${encodeURIComponent(record.sessionId)}`}
              data-testid="artifact-session"
            >
              session
            </Link>
          ) : null}
          <a className="underline" href={`${artifactPath(slug, record)}?download=1`} data-testid="artifact-download">
            Download
          </a>
        </span>
      </div>
      <ArtifactDataView data={record.data} />
    </li>
  );
}

export function ArtifactsPage({ teamSlug, slug }: { teamSlug: string; slug: string }) {
  // The sign-in cookie is the credential: no token.
  const client = useMemo(() => createApiClient(slug, ""), [slug]);
  const [kind, setKind] = useState("");
  const [search, setSearch] = useState("");
  // Without an active version there is no registry: the kinds come from the records alone.
  const info = useQuery({
    queryKey: ["agent-info", slug],
    queryFn: () => client.json<Info>("GET", "/info"),
    retry: false,
  });
  const artifacts = useInfiniteQuery({
    queryKey: ["artifacts", slug, kind],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: String(pageSize) });
      if (kind) query.set("kind", kind);
      if (pageParam) query.set("cursor", pageParam);
      return client.json<ArtifactList>("GET", `/artifacts?${query}`, { signal });
    },
    getNextPageParam: (last) => last.nextCursor,
  });
  const loaded = artifacts.data?.pages.flatMap((page) => page.artifacts) ?? [];
  const shown = matchingArtifacts(loaded, search);
  const declared = info.data?.agent.artifactKinds ?? [];
  const kinds = kindChoices(
    declared.map((k) => k.kind),
    loaded,
    kind,
  );
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight" data-testid="artifacts-title">
          Artifacts
        </h1>
        <p className="text-sm text-zinc-500">
          What{" "}
          <Link className="underline" href={`/teams/${teamSlug}/agents/${slug}`} data-testid="artifacts-agent">
            {info.data?.agent.name || slug}
          </Link>{" "}
          tagged, newest updated first.
        </p>
      </div>
      <Card aria-label="Artifacts" data-testid="artifacts">
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="Kind" hint={declared.find((k) => k.kind === kind)?.description}>
            <Select value={kind} onChange={(event) => setKind(event.target.value)} data-testid="artifacts-kind">
              <option value="">All kinds</option>
              {kinds.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Search" hint="By key or title, in the records loaded below.">
            <Input
              type="search"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              placeholder="A-1001"
              data-testid="artifacts-search"
            />
          </Field>
        </div>
        {artifacts.error ? (
          <div className="mt-3">
            <ErrorNote>{errorMessage(artifacts.error)}</ErrorNote>
          </div>
        ) : null}
        {artifacts.isPending ? <p className="mt-3 text-sm text-zinc-500">Loading…</p> : null}
        {artifacts.data && shown.length === 0 ? (
          <div className="mt-4" data-testid="artifacts-empty">
            <EmptyState title={loaded.length === 0 ? "No artifacts yet" : "No loaded record matches"}>
              {loaded.length === 0
                ? "Tools, hooks and the model (tag_artifact) tag records with ctx.artifacts.tag; they show here."
                : artifacts.hasNextPage
                  ? "Load more to search further back."
                  : "Try another key or title."}
            </EmptyState>
          </div>
        ) : null}
        <ul className="divide-y divide-zinc-100 dark:divide-zinc-800" data-testid="artifact-list">
          {shown.map((record) => (
            <ArtifactItem key={`${record.kind}/${record.key}`} slug={slug} record={record} />
          ))}
        </ul>
        {artifacts.hasNextPage ? (
          <Button
            variant="secondary"
            size="sm"
            className="mt-3"
            disabled={artifacts.isFetchingNextPage}
            onClick={() => artifacts.fetchNextPage()}
            data-testid="artifacts-more"
          >
            {artifacts.isFetchingNextPage ? "Loading…" : "Load more"}
          </Button>
        ) : null}
      </Card>
    </div>
  );
}
