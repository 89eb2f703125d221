#!/usr/bin/env node
// The `agentfold` command: runs the TypeScript CLI in this process (no wrapper process, so
// signals reach the supervisor directly).
import { register } from "tsx/esm/api";

register();
await import("../src/cli/main.ts");
