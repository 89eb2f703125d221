import { defineResult } from "agentfold/result";

export default defineResult({
  async commit(text, ctx) {
    if (/refund/i.test(text) && !/business days/i.test(text)) {
      ctx.reject("Say how long the refund takes (3–5 business days).");
    }
  },
});
