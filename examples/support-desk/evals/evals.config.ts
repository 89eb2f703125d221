import { defineEvalConfig } from "agentfold/evals";

export default defineEvalConfig({ maxConcurrency: 4 });
