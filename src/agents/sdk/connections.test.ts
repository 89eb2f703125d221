import { describe, expect, it } from "vitest";
import { defineConnection, envTemplateNames, resolveEnvTemplate } from "./connections";
import { descriptorKindOf } from "./descriptor";
import { definitionMessages } from "./test-support";

describe("defineConnection", () => {
  it("accepts the remote, stdio and peer forms and records which one it is", () => {
    const remote = defineConnection({
      url: "https://mcp.linear.app/sse",
      headers: { authorization: "Bearer ${LINEAR_TOKEN}" },
      oauth: true,
    });
    expect(descriptorKindOf(remote)).toBe("connection");
    expect(remote.form).toBe("remote");
    expect(defineConnection({ command: "npx", args: ["-y", "server"], env: { KEY: "${KEY}" } }).form).toBe("stdio");
    expect(defineConnection({ agent: "triage", description: "Triage bot" }).form).toBe("agent");
    expect(defineConnection({ url: "${MCP_URL}" }).form).toBe("remote");
  });

  it("requires exactly one of url, command or agent", () => {
    expect(definitionMessages(() => defineConnection({ description: "x" } as never))).toEqual([
      "defineConnection: give exactly one of url, command or agent (got none)",
    ]);
    expect(definitionMessages(() => defineConnection({ url: "https://a", command: "b" } as never))).toEqual([
      "defineConnection: give exactly one of url, command or agent (got url and command)",
    ]);
  });

  it("refuses Cursor account connectors", () => {
    expect(definitionMessages(() => defineConnection({ cursorAccount: true, servers: ["Slack"] } as never))).toEqual([
      "defineConnection: cursorAccount: Cursor account connectors are Cursor-hosted and not available; connect the server by url or command",
    ]);
  });

  it("refuses bad urls, malformed templates, bad slugs and fields of another form", () => {
    expect(definitionMessages(() => defineConnection({ url: "ftp://files", headers: { a: "Bearer ${}" } }))).toEqual([
      "defineConnection: url: expected an http(s) URL",
      "defineConnection: headers.a: malformed ${NAME} template (NAME is letters, digits and _, not starting with a digit)",
    ]);
    expect(definitionMessages(() => defineConnection({ agent: "-bad" }))).toEqual([
      "defineConnection: agent: expected an agent slug",
    ]);
    expect(definitionMessages(() => defineConnection({ command: "npx", headers: {} } as never))).toEqual([
      "defineConnection: headers: unknown field",
    ]);
    expect(definitionMessages(() => defineConnection({ command: "" }))).toEqual([
      "defineConnection: command: must not be empty",
    ]);
  });
});

describe("env templates", () => {
  it("lists every variable a connection uses, once", () => {
    expect(
      envTemplateNames({ url: "https://${HOST}/mcp", headers: { authorization: "Bearer ${TOKEN}", x: "${HOST}" } }),
    ).toEqual(["HOST", "TOKEN"]);
    expect(
      envTemplateNames({ command: "${BIN}", args: ["--key=${API_KEY}"], env: { A: "${SECRET_A}" }, cwd: "${DIR}" }),
    ).toEqual(["BIN", "API_KEY", "SECRET_A", "DIR"]);
    expect(envTemplateNames({ agent: "peer" })).toEqual([]);
  });

  it("resolves templates and reports missing variables", () => {
    expect(resolveEnvTemplate("Bearer ${TOKEN}", { TOKEN: "t0k" })).toEqual({ text: "Bearer t0k", missing: [] });
    expect(resolveEnvTemplate("${A}-${B}-${A}", { B: "b" })).toEqual({ text: "-b-", missing: ["A"] });
  });
});
