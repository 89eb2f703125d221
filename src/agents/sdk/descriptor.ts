// What every define* helper returns: the validated config, frozen, branded with a symbol from the
// global registry. Symbol.for (not a module-local Symbol) because an agent bundle carries its own
// copy of this package, and the loader must still recognise the descriptors it exports.

export const descriptorKind = Symbol.for("agentfold.descriptor");

export type DescriptorKind =
  | "agent"
  | "instructions"
  | "tool"
  | "hook"
  | "channel"
  | "schedule"
  | "skill"
  | "eval"
  | "eval-config"
  | "artifacts"
  | "connection"
  | "result";

const descriptorKinds: ReadonlySet<string> = new Set<DescriptorKind>([
  "agent",
  "instructions",
  "tool",
  "hook",
  "channel",
  "schedule",
  "skill",
  "eval",
  "eval-config",
  "artifacts",
  "connection",
  "result",
]);

export type Descriptor<K extends DescriptorKind, C> = Readonly<C> & { readonly [descriptorKind]: K };

/** The kind of a descriptor, or undefined when the value is not one. */
export function descriptorKindOf(value: unknown): DescriptorKind | undefined {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return undefined;
  const kind: unknown = (value as { [descriptorKind]?: unknown })[descriptorKind];
  return typeof kind === "string" && descriptorKinds.has(kind) ? (kind as DescriptorKind) : undefined;
}

export type DefinitionIssue = { path: string; message: string };

/** A define* call given a bad config. Thrown when the agent module loads, so `validate` and the
 * loader report it against the file. */
export class DefinitionError extends Error {
  constructor(
    readonly helper: string,
    readonly issues: DefinitionIssue[],
  ) {
    super(issues.map((issue) => formatIssue(helper, issue)).join("\n"));
    this.name = "DefinitionError";
  }
}

function formatIssue(helper: string, { path, message }: DefinitionIssue): string {
  return path ? `${helper}: ${path}: ${message}` : `${helper}: ${message}`;
}

/** Freezes a validated config and brands it as a descriptor of `kind`. */
export function brand<K extends DescriptorKind, C extends object>(kind: K, config: C): Descriptor<K, C> {
  const descriptor = { ...config, [descriptorKind]: kind };
  for (const value of Object.values(descriptor)) deepFreezePlain(value);
  return Object.freeze(descriptor) as Descriptor<K, C>;
}

// Only plain data is frozen: zod schemas cache state on themselves and functions are the
// author's, so both are left as they are.
function deepFreezePlain(value: unknown): void {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return;
  const proto: unknown = Object.getPrototypeOf(value);
  const isPlain = proto === null || Object.getPrototypeOf(proto) === null;
  if (!Array.isArray(value) && !isPlain) return;
  if ("_zod" in value) return;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreezePlain(child);
}
