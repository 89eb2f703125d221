"use client";
// The agent page's Slack setup (docs/integrations.md, "Slack"), one per Slack channel of the active
// version: the URLs to give Slack, the app manifest to create the app from, which of the secrets
// it reads are set (never their values), and the doctor, which checks them against Slack.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { SlackCheck, SlackCheckStatus, SlackSetup } from "@/server/slack/schema";
import { errorMessage, useTRPC } from "@/components/trpc/provider";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, ErrorNote } from "@/components/ui/card";
import { CopyButton } from "./copy-button";

const roleLabel = { botToken: "Bot User OAuth Token", signingSecret: "Signing Secret", appToken: "App-Level Token" };

export function SlackSetupCard({
  teamSlug,
  slug,
  canRunDoctor,
}: {
  teamSlug: string;
  slug: string;
  canRunDoctor: boolean;
}) {
  const trpc = useTRPC();
  const setup = useQuery(trpc.slack.setup.queryOptions({ teamSlug, slug }));
  if (setup.error) return <ErrorNote>{errorMessage(setup.error)}</ErrorNote>;
  if (!setup.data || setup.data.channels.length === 0) return null;
  return (
    <>
      {setup.data.channels.map((channel) => (
        <SlackChannelSetup
          key={channel.channelId}
          teamSlug={teamSlug}
          slug={slug}
          channel={channel}
          canRunDoctor={canRunDoctor}
        />
      ))}
    </>
  );
}

function SlackChannelSetup(props: { teamSlug: string; slug: string; channel: SlackSetup; canRunDoctor: boolean }) {
  const { teamSlug, slug, channel, canRunDoctor } = props;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const doctor = useMutation(
    trpc.slack.doctor.mutationOptions({
      // A secret set since the page loaded shows as set once the doctor has read it.
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.slack.setup.queryKey() }),
    }),
  );
  const manifest = JSON.stringify(channel.manifest, null, 2);
  return (
    <Card aria-label="Slack setup" data-testid="slack-setup" data-channel={channel.channelId}>
      <h2 className="font-semibold">
        Slack <span className="ml-1 font-mono text-sm font-normal text-zinc-500">channels/{channel.channelId}</span>
      </h2>
      <p className="mt-1 text-sm text-zinc-500">
        Create the Slack app from the manifest below (api.slack.com/apps → Create New App → From a manifest), install it
        to your workspace, set the secrets it shows you here, then run the doctor.
      </p>
      <dl className="mt-3 space-y-2 text-sm">
        <UrlRow label="Events URL" url={channel.eventsUrl} testId="slack-events-url" />
        <UrlRow label="Interactivity URL" url={channel.interactivityUrl} testId="slack-interactivity-url" />
      </dl>
      <h3 className="mt-4 text-xs font-semibold uppercase tracking-wide text-zinc-500">Secrets it reads</h3>
      <ul className="mt-1 space-y-1 text-sm">
        {channel.secrets.map((secret) => (
          <li
            key={secret.name}
            className="flex flex-wrap items-center gap-2"
            data-testid="slack-secret"
            data-secret={secret.name}
            data-state={secret.isSet ? "set" : "missing"}
          >
            <code className="font-mono font-medium">{secret.name}</code>
            <span className="text-zinc-500">{roleLabel[secret.role]}</span>
            {secret.isSet ? (
              <Badge tone="good">set</Badge>
            ) : secret.isRequired ? (
              <Badge tone="warn">missing</Badge>
            ) : (
              <Badge>optional: Socket Mode</Badge>
            )}
          </li>
        ))}
      </ul>
      <details className="mt-4">
        <summary className="cursor-pointer text-sm font-medium">App manifest</summary>
        <div className="mt-2 flex justify-end">
          <CopyButton text={manifest} label="Copy manifest" testId="slack-manifest-copy" />
        </div>
        <pre
          className="mt-2 max-h-80 overflow-auto rounded-md bg-zinc-50 p-3 font-mono text-xs dark:bg-zinc-950"
          data-testid="slack-manifest"
        >
          {manifest}
        </pre>
      </details>
      {canRunDoctor ? (
        <div className="mt-4">
          <Button
            variant="secondary"
            disabled={doctor.isPending}
            onClick={() => doctor.mutate({ teamSlug, slug, channelId: channel.channelId })}
            data-testid="slack-doctor-run"
          >
            {doctor.isPending ? "Checking…" : "Run doctor"}
          </Button>
          {doctor.error ? (
            <div className="mt-2">
              <ErrorNote>{errorMessage(doctor.error)}</ErrorNote>
            </div>
          ) : null}
          {doctor.data ? <DoctorChecks checks={doctor.data.checks} /> : null}
        </div>
      ) : null}
    </Card>
  );
}

function UrlRow({ label, url, testId }: { label: string; url: string; testId: string }) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <dt className="w-36 text-zinc-500">{label}</dt>
      <dd className="min-w-0 flex-1 truncate">
        <code className="font-mono" data-testid={testId}>
          {url}
        </code>
      </dd>
      <CopyButton text={url} testId={`${testId}-copy`} />
    </div>
  );
}

const marks: Record<SlackCheckStatus, { mark: string; className: string }> = {
  pass: { mark: "✓", className: "text-emerald-600" },
  warn: { mark: "!", className: "text-amber-600" },
  fail: { mark: "✗", className: "text-rose-600" },
  skip: { mark: "–", className: "text-zinc-400" },
};

function DoctorChecks({ checks }: { checks: SlackCheck[] }) {
  return (
    <ul className="mt-3 space-y-2 text-sm" data-testid="slack-doctor">
      {checks.map((check) => (
        <li key={check.name} data-testid="slack-check" data-check={check.name} data-status={check.status}>
          <span className={`mr-1.5 font-semibold ${marks[check.status].className}`} aria-hidden>
            {marks[check.status].mark}
          </span>
          <span className="font-medium">{check.name}</span>
          <span className="sr-only"> ({check.status})</span>: <span className="break-all">{check.message}</span>
          {check.fix ? <p className="ml-5 text-zinc-500">Fix: {check.fix}</p> : null}
        </li>
      ))}
    </ul>
  );
}
