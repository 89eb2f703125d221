// `${NAME}` templates in connection configs (docs/agent-folders.md, "Secrets"). They are resolved
// each time a client opens, so a secret bound after the module loaded is still picked up.

const template = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The variable names a string uses, in order of first use. */
export function templateNames(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(template), (match) => match[1] as string))];
}

/** Why a string's templates are malformed (e.g. `${}` or `${1X}`), or undefined. */
export function templateProblem(text: string): string | undefined {
  const stray = text.replace(template, "").indexOf("${");
  if (stray === -1) return undefined;
  return "malformed ${NAME} template (NAME is letters, digits and _, not starting with a digit)";
}

/** Substitutes every `${NAME}`; names with no value are reported, and left empty in the text. */
export function resolveEnvTemplate(
  text: string,
  env: Record<string, string | undefined>,
): { text: string; missing: string[] } {
  const missing: string[] = [];
  const resolved = text.replace(template, (_, name: string) => {
    const value = env[name];
    if (value === undefined) missing.push(name);
    return value ?? "";
  });
  return { text: resolved, missing: [...new Set(missing)] };
}
