import { test as base } from "@playwright/test";

/** Tests run against the stack global setup started; its URL is the base URL. */
export const test = base.extend({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
  baseURL: async ({}, use) => {
    const url = process.env.AGENTFOLD_E2E_URL;
    if (!url) throw new Error("AGENTFOLD_E2E_URL is not set: run through `npm run test:e2e`");
    await use(url);
  },
});

export { expect } from "@playwright/test";
