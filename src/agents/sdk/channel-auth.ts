// The auth chain of a channel's routes (docs/agent-folders.md, "The `define*` helpers";
// docs/api.md, "Authentication"). These are declarations: the platform evaluates them in order and
// the first policy that admits the request wins; none → 401.

const policyNames = ["localDevStrict", "bearer", "allowAll"] as const;
export type AuthPolicyName = (typeof policyNames)[number];

export type AuthPolicy =
  | { readonly policy: "localDevStrict" }
  | { readonly policy: "bearer"; readonly token: string | undefined }
  | { readonly policy: "allowAll" };

/** Direct loopback callers only; requests carrying proxy-forwarding headers are refused. */
export function localDevStrict(): AuthPolicy {
  return Object.freeze({ policy: "localDevStrict" });
}

/** `Authorization: Bearer <token>`. An unset or empty token admits nobody rather than throwing,
 * so `[localDevStrict(), bearerAuth(process.env.X)]` keeps loopback open in development. */
export function bearerAuth(token: string | undefined): AuthPolicy {
  const policy = { policy: "bearer" as const } as { policy: "bearer"; token: string | undefined };
  // Not enumerable: descriptors are printed by `info --json` and the secret must not be.
  Object.defineProperty(policy, "token", { value: token || undefined, enumerable: false });
  return Object.freeze(policy);
}

/** Anonymous access, for demos on trusted networks or behind another gate. */
export function allowAll(): AuthPolicy {
  return Object.freeze({ policy: "allowAll" });
}

export function isAuthPolicy(value: unknown): value is AuthPolicy {
  if (typeof value !== "object" || value === null) return false;
  const name = (value as { policy?: unknown }).policy;
  return typeof name === "string" && (policyNames as readonly string[]).includes(name);
}
