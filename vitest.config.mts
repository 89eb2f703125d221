import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.join(import.meta.dirname, "src") } },
  test: {
    include: ["src/**/*.test.ts", "scripts/**/*.test.ts"],
    environment: "node",
    // Starts a throwaway Postgres and Restate for *.int.test.ts; see the file for why.
    globalSetup: ["src/testing/vitest-global-setup.ts"],
    pool: "forks",
    // The Restate SDK logs every invocation at INFO; tests need its warnings only.
    // AUTH_SECRET: dashboard cookies in tests are sealed with a fixed key, never one written to
    // the working tree's data directory.
    env: { RESTATE_LOGGING: "WARN", AUTH_SECRET: "test-auth-secret-of-at-least-32-characters" },
    testTimeout: 30_000,
    hookTimeout: 240_000,
    // Two cores: the supervisor tests run whole stacks and a web build.
    maxWorkers: 2,
  },
});
