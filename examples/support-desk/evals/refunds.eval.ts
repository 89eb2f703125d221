import { defineEval } from "agentfold/evals";

export default defineEval({
  tags: ["refunds"],
  cases: [
    { id: "asks-approval", description: "A refund request parks for approval", test: async () => {} },
    { id: "explains-timing", description: "The answer says how long a refund takes", test: async () => {} },
  ],
});
