import { expect, type Page } from "@playwright/test";

/** Collects the page's console errors and uncaught exceptions; a journey ends with none. */
export function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

/** Signs in on the sign-in page and waits for the home page's agents. */
export async function signIn(page: Page, who: { email: string; password: string }): Promise<void> {
  await page.goto("/signin");
  await page.getByTestId("signin-email").fill(who.email);
  await page.getByTestId("signin-password").fill(who.password);
  await page.getByTestId("signin-submit").click();
  await expect(page.getByTestId("home-agents")).toBeVisible();
}

/** Sends a message from the playground composer and waits for it in the transcript. */
export async function send(page: Page, message: string): Promise<void> {
  await page.getByTestId("composer").fill(message);
  await page.getByTestId("composer").press("Enter");
  await expect(page.getByTestId("message-user").last()).toContainText(message.replace(/\s*\[.*$/, ""));
}

/** Every visible control has an accessible name (a label, aria-label or text). */
export async function unlabelledControls(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("button, input, select, textarea, a[href]")]
      .filter((el) => (el as HTMLInputElement).type !== "hidden" && el.getClientRects().length > 0)
      .filter((el) => {
        const labels = (el as HTMLInputElement).labels;
        const named =
          el.getAttribute("aria-label") ||
          el.getAttribute("aria-labelledby") ||
          el.getAttribute("title") ||
          el.textContent?.trim() ||
          (labels && labels.length > 0);
        return !named;
      })
      .map((el) => el.outerHTML.slice(0, 120)),
  );
}

/** Tabbing to a control shows a focus outline. */
export async function focusOutlineAfterTab(page: Page): Promise<string> {
  await page.keyboard.press("Tab");
  return page.evaluate(() => (document.activeElement ? getComputedStyle(document.activeElement).outlineStyle : "none"));
}
