// `validate` says so when agent code reaches for a part of ctx.host that this
// platform does not provide yet: the call would throw at run time, never silently do nothing.
// A text search over the folder's own bundled sources; it finds the usual spellings
// (`ctx.host.github`, `host.slack.getClient()`, `const { mcp } = ctx.host`).
import type { Diagnostics } from "./diagnostics";

/** Members agent code may name that have no runtime here, with what to say about each. */
export const unavailableHostMembers: Record<string, string> = {
  github: "ctx.host.github",
  slack: "ctx.host.slack",
};

const memberUse = new RegExp(`\\bhost\\s*\\??\\.\\s*(${Object.keys(unavailableHostMembers).join("|")})\\b`, "g");
const destructured = /\{([^}]*)\}\s*=\s*(?:\w+\s*\.\s*)?host\b/g;

export function checkHostMembers(diagnostics: Diagnostics, texts: Map<string, string>): void {
  for (const [file, text] of texts) {
    const used = new Set<string>();
    for (const match of text.matchAll(memberUse)) used.add(match[1]!);
    for (const match of text.matchAll(destructured))
      for (const name of match[1]!.split(",").map((part) => part.split(":")[0]!.trim()))
        if (name in unavailableHostMembers) used.add(name);
    for (const name of [...used].sort())
      diagnostics.warning(
        file,
        `${unavailableHostMembers[name]} is not available on this platform yet; calls to it throw`,
      );
  }
}
