import { expect, test } from "./fixtures";

test("the home page shows Agentfold with every component running", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByTestId("home-title")).toHaveText("Agentfold");
  await expect(page.getByTestId("platform-status")).toHaveText("All systems running");
  for (const component of ["db", "restate", "worker"]) {
    await expect(page.getByTestId(`component-${component}`)).toHaveAttribute("data-ok", "true");
  }
});

test("GET /v1/health answers 200 with every component ok", async ({ request }) => {
  const response = await request.get("/v1/health");
  expect(response.status()).toBe(200);
  const body = await response.json();
  expect(body.ok).toBe(true);
  for (const component of ["db", "restate", "worker"]) expect(body.components[component].ok).toBe(true);
});

test("unknown API paths answer a JSON 404 in the wire format", async ({ request }) => {
  for (const path of ["/v1/no-such-route", "/some-agent/v1/nothing/here"]) {
    const response = await request.post(path, { data: { message: "hi" } });
    expect(response.status()).toBe(404);
    expect(await response.json()).toMatchObject({ ok: false, error: "not_found" });
  }
});
