#!/usr/bin/env node
// The `agentfold` command: runs the TypeScript CLI in this process (no wrapper process, so
// signals reach the supervisor directly). The project's tsconfig is named explicitly so the
// `@/` paths resolve from any working directory.
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

register({ tsconfig: fileURLToPath(new URL("../tsconfig.json", import.meta.url)) });
await import("../src/cli/main.ts");
