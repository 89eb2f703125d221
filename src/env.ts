// The only reader of process.env. Every setting is parsed here, once, with zod; a bad value stops
// start-up with a message naming the variable.
import crypto from "node:crypto";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { parseModelAliases } from "@/agents/runtime/models/model-choice";
import { parseEgressSetting, parsePrivateHosts } from "@/agents/sandbox/egress-policy";
import { trustedProxyProblem } from "@/server/auth/client-address";
import { readOrCreateSecret } from "@/server/config/secrets";
import { parseSecretKey, readOrCreateSecretKey } from "@/server/secrets/secret-key";
import { otelEnvShape } from "@/server/telemetry/otel-env";

const port = (fallback: number) => z.coerce.number().int().min(1).max(65535).default(fallback);
const optionalUrl = z.url({ protocol: /^https?$/ }).optional();
const optionalString = z.string().min(1).optional();
const logLevelSchema = z.enum(["trace", "debug", "info", "warn", "error", "fatal", "silent"]).default("info");

const clusterWorkersDefault = 2;

export const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    AGENTFOLD_DATA_DIR: z.string().min(1).default(".data"),
    AGENTFOLD_HOST: z.string().min(1).default("127.0.0.1"),
    PORT: port(3000),
    // Set by `agentfold start` for each web process it runs (one may be an extra one beside PORT).
    AGENTFOLD_WEB_HOST: optionalString,
    AGENTFOLD_WEB_PORT: port(3000).optional(),
    WORKER_PORT: port(9080),
    // How Restate reaches the worker; defaults to the worker's own host and port.
    WORKER_URL: optionalUrl,
    POSTGRES_PORT: port(5433),
    RESTATE_INGRESS_PORT: port(8080),
    RESTATE_ADMIN_PORT: port(9070),
    RESTATE_NODE_PORT: port(5122),
    // `agentfold start` restarts a part that dies up to this many times within the window; one
    // death more stops the stack (docs/configuration.md, "Supervision").
    AGENTFOLD_RESTART_LIMIT: z.coerce.number().int().min(0).default(5),
    AGENTFOLD_RESTART_WINDOW_SECONDS: z.coerce.number().positive().default(60),
    // `agentfold start` in cluster mode: 3 Restate nodes, 2 workers (by default) and 2 webs on this machine, each on
    // a port derived from the base (docs/configuration.md, "Cluster mode").
    AGENTFOLD_CLUSTER: z
      .enum(["0", "1"])
      .default("0")
      .transform((value) => value === "1"),
    AGENTFOLD_CLUSTER_PORT_BASE: z.coerce.number().int().min(1024).max(64_000).default(17_000),
    // How many workers cluster mode runs behind its one registered address.
    AGENTFOLD_CLUSTER_WORKERS: z.coerce.number().int().min(1).max(9).default(clusterWorkersDefault),
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
    RESTATE_INGRESS_URL: optionalUrl,
    RESTATE_ADMIN_URL: optionalUrl,
    // The keys an external Restate signs its requests to the worker with (docs/configuration.md).
    RESTATE_IDENTITY_KEYS: z
      .string()
      .transform((value) =>
        value
          .split(",")
          .map((key) => key.trim())
          .filter(Boolean),
      )
      .pipe(
        z.array(
          z.string().regex(/^publickeyv1_[1-9A-HJ-NP-Za-km-z]{32,44}$/, "must be publickeyv1_ keys, comma-separated"),
        ),
      )
      .default([]),
    // The explicit opt-out: an external Restate without keys may call the worker unsigned.
    AGENTFOLD_UNSIGNED_RESTATE: z
      .enum(["0", "1"])
      .default("0")
      .transform((value) => value === "1"),
    AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    // Encrypts agent secrets at rest; generated into the data directory when unset.
    AGENTFOLD_SECRET_KEY: z
      .string()
      .refine(
        (value) => parseSecretKey(value) !== undefined,
        "must be 32 bytes as base64 or hex (openssl rand -base64 32)",
      )
      .optional(),
    // The public address of the dashboard when it differs from what the Host header says.
    NEXTAUTH_URL: optionalUrl,
    // Where browsers reach this Agentfold from outside: MCP OAuth providers send them back under it.
    AGENTFOLD_PUBLIC_URL: optionalUrl,
    // Where the Slack Web API and the GitHub API answer (their public addresses by default; tests
    // and GitHub Enterprise Server set them): docs/integrations.md.
    SLACK_API_URL: optionalUrl,
    GITHUB_API_URL: optionalUrl,
    // The model that grades evals' t.judge (docs/evals.md); the worker's default model otherwise.
    AGENTFOLD_EVAL_JUDGE_MODEL: z.string().min(1).optional(),
    // How long an eval case's claim holds without renewal: a dead worker's cases are taken over after it.
    AGENTFOLD_EVAL_LEASE_SECONDS: z.coerce.number().positive().default(60),
    // How long a dashboard sign-in lasts.
    AGENTFOLD_SESSION_MAX_AGE_HOURS: z.coerce.number().positive().default(168),
    // Proxies whose X-Forwarded-For names the client (sign-in rate limit): IPs or CIDRs, comma-separated.
    AGENTFOLD_TRUSTED_PROXIES: z
      .string()
      .transform((value, ctx) => {
        const entries = value
          .split(",")
          .map((entry) => entry.trim())
          .filter(Boolean);
        for (const problem of entries.map(trustedProxyProblem).filter(Boolean))
          ctx.addIssue({ code: "custom", message: `${problem}; expected IPs or CIDRs, comma-separated` });
        return entries;
      })
      .default([]),
    // Optional sign-in providers, each on when its variables are set.
    GITHUB_ID: optionalString,
    GITHUB_SECRET: optionalString,
    OIDC_ISSUER: optionalUrl,
    OIDC_CLIENT_ID: optionalString,
    OIDC_CLIENT_SECRET: optionalString,
    OIDC_NAME: z.string().min(1).default("Single sign-on"),
    OPENAI_API_KEY: optionalString,
    OPENAI_BASE_URL: optionalUrl,
    ANTHROPIC_API_KEY: optionalString,
    ANTHROPIC_BASE_URL: optionalUrl,
    OPENAI_COMPATIBLE_BASE_URL: optionalUrl,
    XAI_API_KEY: optionalString,
    XAI_BASE_URL: optionalUrl,
    // Cursor's bare model ids and what each runs on: grok-4.5=xai:grok-4,… (docs/models.md, "Cursor's model ids").
    AGENTFOLD_MODEL_ALIASES: z
      .string()
      .default("")
      .transform((value, ctx) => {
        try {
          return parseModelAliases(value);
        } catch (error) {
          ctx.addIssue({ code: "custom", message: (error as Error).message });
          return z.NEVER;
        }
      }),
    AGENTFOLD_DEFAULT_MODEL: z
      .string()
      .regex(/^[a-z0-9-]+:.+$/, "must look like provider:model")
      .default("local:scripted"),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
    // Single-agent local mode: this agent's routes also answer unslugged at /v1/*, and loopback
    // callers without credentials act as the local principal (localDevStrict).
    // How long a tool call parked for approval waits before it expires as denied.
    AGENTFOLD_APPROVAL_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(86_400),
    // How long one hook may take with one event before it is logged and skipped.
    AGENTFOLD_HOOK_TIMEOUT_SECONDS: z.coerce.number().positive().default(30),
    // The platform processes' own log level (pino: trace, debug, info, warn, error, fatal, silent).
    AGENTFOLD_LOG_LEVEL: logLevelSchema,
    // How much of each agent's logs (GET /v1/logs) is kept: lines per agent, and days (docs/logs.md).
    AGENTFOLD_LOG_MAX_LINES: z.coerce.number().int().min(100).default(20_000),
    AGENTFOLD_LOG_RETENTION_DAYS: z.coerce.number().positive().default(7),
    // A turn's attempts on retryable failures (a provider or the database away), and the longest
    // backoff between two (docs/turns.md, "Failures").
    AGENTFOLD_TURN_RETRY_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(8),
    AGENTFOLD_TURN_RETRY_MAX_INTERVAL_SECONDS: z.coerce.number().min(0.1).max(3_600).default(30),
    // Where agent code may connect when its agent.ts declares no hosting.egressDomains, and the
    // most any agent may reach: open (public hosts), none, or a comma list of host names.
    AGENTFOLD_EGRESS: z
      .string()
      .default("open")
      .transform((value, ctx) => {
        try {
          return parseEgressSetting(value);
        } catch (error) {
          ctx.addIssue({ code: "custom", message: (error as Error).message });
          return z.NEVER;
        }
      }),
    // host:port entries of MCP servers on the operator's own network that agents' remote MCP
    // connections may reach, though private or loopback (docs/configuration.md, "Egress").
    AGENTFOLD_MCP_PRIVATE_HOSTS: z
      .string()
      .default("")
      .transform((value, ctx) => {
        try {
          return parsePrivateHosts(value);
        } catch (error) {
          ctx.addIssue({ code: "custom", message: (error as Error).message });
          return z.NEVER;
        }
      }),
    // bubblewrap, or unisolated: agent code runs without isolation (single-user local use only).
    AGENTFOLD_SANDBOX: z.enum(["bubblewrap", "unisolated"]).default("bubblewrap"),
    AGENTFOLD_SINGLE_AGENT: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]*$/, "must be an agent slug")
      .optional(),
    // `agentfold dev` on a root of several agents: localDevStrict for every agent, not one.
    AGENTFOLD_LOCAL_DEV: z
      .enum(["0", "1"])
      .default("0")
      .transform((value) => value === "1"),
    // The instance and token `agentfold eval` uses instead of a local stack, as --url and --token.
    AGENTFOLD_URL: optionalUrl,
    AGENTFOLD_TOKEN: optionalString,
    // Where `agentfold login` keeps credentials: this, else $XDG_CONFIG_HOME/agentfold, else
    // ~/.config/agentfold (docs/cli.md, "Instances").
    AGENTFOLD_CONFIG_DIR: optionalString,
    XDG_CONFIG_HOME: optionalString,
    // Whether `agentfold login` can open a browser: BROWSER names one (`none`: never), else a
    // graphical session (DISPLAY, WAYLAND_DISPLAY) lets it use xdg-open.
    BROWSER: optionalString,
    DISPLAY: optionalString,
    WAYLAND_DISPLAY: optionalString,
    // OpenTelemetry export: the standard OTEL_* variables (docs/telemetry.md).
    ...otelEnvShape,
  })
  .superRefine((value, ctx) => {
    // Local access without a token is for one person's machine; an instance others reach through
    // its public address is not one.
    if ((value.AGENTFOLD_LOCAL_DEV || value.AGENTFOLD_SINGLE_AGENT) && value.AGENTFOLD_PUBLIC_URL) {
      ctx.addIssue({
        code: "custom",
        path: [value.AGENTFOLD_LOCAL_DEV ? "AGENTFOLD_LOCAL_DEV" : "AGENTFOLD_SINGLE_AGENT"],
        message: "local access without a token cannot be on for an instance with AGENTFOLD_PUBLIC_URL",
      });
    }
    // Only cluster mode runs several workers; elsewhere a count other than the default does nothing.
    if (!value.AGENTFOLD_CLUSTER && value.AGENTFOLD_CLUSTER_WORKERS !== clusterWorkersDefault) {
      ctx.addIssue({
        code: "custom",
        path: ["AGENTFOLD_CLUSTER_WORKERS"],
        message: "sets cluster mode's workers: it needs AGENTFOLD_CLUSTER=1 (agentfold start --cluster)",
      });
    }
    // Restate is either fully external or fully embedded: half a configuration is a mistake.
    if (Boolean(value.RESTATE_INGRESS_URL) !== Boolean(value.RESTATE_ADMIN_URL)) {
      const missing = value.RESTATE_INGRESS_URL ? "RESTATE_ADMIN_URL" : "RESTATE_INGRESS_URL";
      ctx.addIssue({
        code: "custom",
        path: [missing],
        message: "set both RESTATE_INGRESS_URL and RESTATE_ADMIN_URL, or neither",
      });
    }
  });

export type RawEnv = z.infer<typeof envSchema>;

export type Env = RawEnv & {
  dataDir: string;
  isExternalDatabase: boolean;
  isExternalRestate: boolean;
  /** Where Restate's ingress and admin API answer: external, or the embedded ports. */
  restateIngressUrl: string;
  restateAdminUrl: string;
  /** How Restate and health checks reach the worker. */
  workerUrl: string;
  /** The address a person opens in a browser. */
  webUrl: string;
  /** The address the outside world knows us by: AGENTFOLD_PUBLIC_URL, else NEXTAUTH_URL, else webUrl. */
  publicUrl: string;
  /** The CLI's own settings and saved logins. */
  configDir: string;
};

export class EnvError extends Error {
  constructor(readonly issues: { variable: string; message: string }[]) {
    super("Invalid configuration:\n" + issues.map((issue) => `  ${issue.variable}: ${issue.message}`).join("\n"));
    this.name = "EnvError";
  }
}

/** Parses a set of variables (process.env by default). Throws EnvError naming each bad one. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  // Empty strings mean "not set", as in most dotenv tooling.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ""));
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    throw new EnvError(
      result.error.issues.map((issue) => ({
        variable: String(issue.path[0] ?? "(environment)"),
        message: issue.message,
      })),
    );
  }
  const raw = result.data;
  // A wildcard bind address is not an address to connect to.
  const connectHost = ["0.0.0.0", "::"].includes(raw.AGENTFOLD_HOST) ? "127.0.0.1" : raw.AGENTFOLD_HOST;
  return {
    ...raw,
    dataDir: path.resolve(raw.AGENTFOLD_DATA_DIR),
    isExternalDatabase: raw.DATABASE_URL !== undefined,
    isExternalRestate: raw.RESTATE_INGRESS_URL !== undefined,
    restateIngressUrl: trimSlash(raw.RESTATE_INGRESS_URL ?? `http://127.0.0.1:${raw.RESTATE_INGRESS_PORT}`),
    restateAdminUrl: trimSlash(raw.RESTATE_ADMIN_URL ?? `http://127.0.0.1:${raw.RESTATE_ADMIN_PORT}`),
    workerUrl: trimSlash(raw.WORKER_URL ?? `http://${connectHost}:${raw.WORKER_PORT}`),
    webUrl: `http://${connectHost}:${raw.PORT}`,
    publicUrl: trimSlash(raw.AGENTFOLD_PUBLIC_URL ?? raw.NEXTAUTH_URL ?? `http://${connectHost}:${raw.PORT}`),
    configDir: path.resolve(
      raw.AGENTFOLD_CONFIG_DIR ?? path.join(raw.XDG_CONFIG_HOME ?? path.join(os.homedir(), ".config"), "agentfold"),
    ),
  };
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

/** The secret that signs dashboard sessions: AUTH_SECRET, or one generated on first start and
 * kept in the data directory so sign-ins survive restarts. */
export function authSecret(config: Env): string {
  return (
    config.AUTH_SECRET ??
    readOrCreateSecret(path.join(config.dataDir, "auth-secret"), () => crypto.randomBytes(32).toString("base64url"))
  );
}

/** The key agent secrets are encrypted with: AGENTFOLD_SECRET_KEY, or one generated on first use
 * and kept in the data directory. */
export function secretKey(config: Env): Buffer {
  return config.AGENTFOLD_SECRET_KEY
    ? parseSecretKey(config.AGENTFOLD_SECRET_KEY)!
    : readOrCreateSecretKey(config.dataDir);
}

/** The variables a child process inherits (the supervisor adds its own on top). */
export function inheritedEnvironment(): NodeJS.ProcessEnv {
  return { ...process.env };
}

/** The Restate SDK reads RESTATE_LOGGING once, when it loads, and logs every invocation at INFO
 * on stdout: a process that runs a worker in-process and owns its stdout (`agentfold eval
 * --json`) keeps it to warnings, unless the variable is set. Call before the SDK loads. */
export function quietRestateSdk(): void {
  process.env.RESTATE_LOGGING ??= "WARN";
}

let cached: Env | undefined;

/** The process's environment, parsed once. */
export function env(): Env {
  cached ??= parseEnv();
  return cached;
}

/** AGENTFOLD_LOG_LEVEL alone, read anew: the logger must not fix every other setting (env()
 * caches them) before a process or a test has set them; a bad value logs at info. */
export function logLevelSetting(): z.infer<typeof logLevelSchema> {
  return logLevelSchema.catch("info").parse(process.env.AGENTFOLD_LOG_LEVEL);
}
