// The MCP SDK's stdio transport, with the server started inside the agent's walls
// (src/agents/sandbox/isolated-command.ts) instead of as a plain child of the platform. Messages
// are framed with the SDK's own ReadBuffer and serializeMessage.
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { IsolatedCommand } from "@/agents/sandbox/isolated-command";

export class SandboxedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private running?: IsolatedCommand;
  private readonly buffer = new ReadBuffer();

  constructor(private readonly spawnServer: () => IsolatedCommand) {}

  async start(): Promise<void> {
    if (this.running) throw new Error("the stdio server was started already");
    const running = this.spawnServer();
    this.running = running;
    const { child } = running;
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", reject);
    });
    child.on("error", (error) => this.onerror?.(error));
    child.stdin!.on("error", (error) => this.onerror?.(error));
    child.stdout!.on("data", (chunk: Buffer) => {
      try {
        this.buffer.append(chunk);
        for (let message = this.buffer.readMessage(); message; message = this.buffer.readMessage())
          this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error as Error);
        void this.close();
      }
    });
    child.once("close", (code, signal) => {
      if (this.running === running) {
        const why = running.failure() ?? `it exited (${signal ?? `code ${code}`})`;
        this.onerror?.(new Error(`the stdio server stopped: ${why}`));
      }
      this.running = undefined;
      this.onclose?.();
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.running?.child.stdin;
    if (!stdin) throw new Error("the stdio server is not running");
    if (!stdin.write(serializeMessage(message))) await new Promise((resolve) => stdin.once("drain", resolve));
  }

  async close(): Promise<void> {
    const running = this.running;
    this.running = undefined;
    this.buffer.clear();
    if (!running) return;
    const closed = new Promise((resolve) => running.child.once("close", resolve));
    running.child.stdin?.end();
    // A server that ignores the end of its input is stopped: it runs nothing worth waiting for.
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
    running.kill();
  }
}
