// Who changed a secret, as the dashboard shows it: a person's email or name, a token's name.
import type { Principal } from "@/server/auth/principal";

export function changedBy(principal: Principal): string {
  const { name, email } = (principal.attributes ?? {}) as Record<string, unknown>;
  if (principal.kind === "user") return String(email ?? name ?? principal.id);
  if (principal.id.startsWith("token:")) return `token ${String(name ?? principal.id.slice("token:".length))}`;
  return principal.kind;
}
