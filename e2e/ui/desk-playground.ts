// The desk playground as a remote user opens it: every test of the file that calls this starts
// signed in through the navbar's token field — entered on the anonymous demo first, so no desk
// page is ever loaded without credentials (it would rightly log its 401s) — and fails on any
// console error or page error.
import { tokens } from "../api/client";
import { expect, test } from "../fixtures";
import { watchConsole } from "./page-checks";

/** What the browser logged in the running test; a test that expects an error takes it out. */
export type SeenErrors = { errors: string[] };

export function openDeskPlaygroundEachTest(slug = "desk"): SeenErrors {
  const seen: SeenErrors = { errors: [] };
  test.beforeEach(async ({ page }) => {
    test.setTimeout(90_000);
    seen.errors = watchConsole(page);
    await page.goto("/public-demo/playground");
    const field = page.getByTestId("token-field");
    await field.fill(tokens().owner);
    await field.press("Enter");
    await expect.poll(() => page.evaluate(() => localStorage.getItem("agentfold.token"))).toBe(tokens().owner);
    await page.goto(`/${slug}/playground`);
    // The display name from defineAgent({ name }), not the slug or the package name.
    await expect(page.getByTestId("agent-name")).toContainText("Support desk");
  });
  test.afterEach(() => {
    expect(seen.errors, "the browser logged errors").toEqual([]);
  });
  return seen;
}
