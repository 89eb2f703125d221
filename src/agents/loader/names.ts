// Naming and slug rules (docs/agent-folders.md, "Slugs"; docs/decisions.md for other names).

const slugPattern = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** Top-level path segments the platform itself uses; an agent slug can never be one. The test
 * beside this file walks src/app to prove every top-level route is listed. */
export const reservedSlugs = new Set([
  "v1",
  "playground",
  "docs",
  "api",
  "_next",
  "favicon.ico",
  "favicon.svg",
  "login",
  "cli-login",
  "logout",
  "signin",
  "signup",
  "dashboard",
  "teams",
  "agents",
  "settings",
  "tokens",
  "approvals",
  "artifacts",
  "usage",
  "static",
  "public",
  "assets",
  "health",
]);

/** Why a slug is not acceptable, or undefined when it is. */
export function slugProblem(slug: string): string | undefined {
  if (!slugPattern.test(slug)) {
    return `slug '${slug}' must start with a letter or digit and contain only letters, digits, '_' and '-'`;
  }
  if (slug.length > 64) return `slug '${slug}' is longer than 64 characters`;
  if (reservedSlugs.has(slug.toLowerCase())) return `slug '${slug}' is reserved by the platform`;
  return undefined;
}

/** Tool, channel, schedule, connection and subagent names: a filename slug without `__`, which
 * is reserved for extension namespaces. */
export function nameProblem(kind: string, name: string): string | undefined {
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(name)) {
    return `${kind} name '${name}' must start with a letter or digit and contain only letters, digits, '_' and '-'`;
  }
  if (name.includes("__")) return `${kind} name '${name}' must not contain '__' (reserved for extensions)`;
  return undefined;
}
