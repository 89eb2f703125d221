// A stdio MCP server shipped inside a test agent's folder (bundled with esbuild by the test, as
// an author would ship theirs): `echo` answers its text with the GREETING its connection's env
// gives, and `probe` reports whether it could fetch a URL or read a file, to show what the
// sandbox lets it reach.
import fs from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "test-stdio", version: "1.0.0" });
server.registerTool(
  "echo",
  { description: "Greets with the text", inputSchema: { text: z.string() } },
  async ({ text }) => ({ content: [{ type: "text", text: `${process.env.GREETING ?? "(no greeting)"}, ${text}` }] }),
);
server.registerTool(
  "probe",
  {
    description: "Tries to fetch a URL and read a file",
    inputSchema: { url: z.string(), file: z.string() },
    annotations: { readOnlyHint: true },
  },
  async ({ url, file }) => {
    const attempt = async (work: () => Promise<unknown>) => {
      try {
        await work();
        return "reached";
      } catch (error) {
        return `refused: ${(error as Error).message}`;
      }
    };
    const result = {
      fetch: await attempt(() => fetch(url, { signal: AbortSignal.timeout(3_000) })),
      read: await attempt(async () => fs.readFileSync(file)),
      uid: process.getuid?.(),
    };
    return { content: [{ type: "text", text: JSON.stringify(result) }] };
  },
);
await server.connect(new StdioServerTransport());
