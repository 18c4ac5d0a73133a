import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { addAlertButton, alertsPanel, modal, rest, thresholdInput } from "./alerts.ts";
import { freshFixture } from "./fixtures.ts";
import { ADMIN, signIn, startApp } from "./harness.ts";
import { holdRequests, procedure } from "./requests.ts";
import { closePage, openPage } from "./spare-page.ts";
import { signedInSuite } from "./suite.ts";

// docs/operations.md "Security and limits", double submits: a double click on a create button used
// to make two records (two sounds, two Telegram messages per crossing). The button is disabled only
// once React re-renders, so the second click can land first; the form's idempotency key is what
// makes it one record.

/**
 * The fastest double click: both clicks reach the button before React re-renders. Playwright's
 * dblclick sometimes lands its second click after the re-render, which would let these tests
 * pass without the key; this never does.
 */
function doubleClick(button: Locator): Promise<void> {
  return button.evaluate((element: HTMLButtonElement) => {
    element.click();
    element.click();
  });
}

const ALICE = { username: "alice", password: "alice-secret", alerts_enabled: true };

const suite = signedInSuite({
  app: () => startApp(freshFixture()),
  users: [ALICE],
  as: ALICE,
  waitFor: (page) => addAlertButton(page, "GC_BUY"),
});

/** Every answer to a procedure's calls (batched or not), and how many calls were sent. */
function answersTo(page: Page, name: string) {
  const pattern = procedure(name);
  const seen = { calls: 0, bodies: [] as unknown[] };
  page.on("request", (r) => {
    if (pattern.test(r.url())) seen.calls += new URL(r.url()).pathname.split(",").length;
  });
  page.on("response", async (r) => {
    if (!pattern.test(r.url())) return;
    const body: unknown = await r.json();
    seen.bodies.push(...(Array.isArray(body) ? body : [body]));
  });
  return seen;
}

/** Waits until every call the double click sent has its answer. */
async function allAnswered(answers: ReturnType<typeof answersTo>) {
  await expect
    .poll(() => answers.calls > 0 && answers.bodies.length === answers.calls, { timeout: 15_000 })
    .toBe(true);
}

/** Both clicks were sent, and both were answered with the one alert. */
function expectOneAlertAnswered(answers: ReturnType<typeof answersTo>) {
  expect(answers.bodies).toHaveLength(2);
  const [first, second] = answers.bodies as Array<{ result: { data: { alert: { id: number } } } }>;
  expect(second).toEqual(first);
}

async function alertThresholds(page: Page): Promise<number[]> {
  const { json } = await rest(page, "GET", "/api/alerts");
  return (json.alerts as Array<{ threshold: number }>).map((alert) => alert.threshold);
}

describe("double-clicking Create Alert", () => {
  it("in the modal creates exactly one alert", async () => {
    const answers = answersTo(suite.page, "alerts.create");
    await addAlertButton(suite.page, "GC_BUY").click();
    await thresholdInput(suite.page).fill("111");
    await doubleClick(modal(suite.page).getByRole("button", { name: "Create Alert", exact: true }));
    await modal(suite.page).waitFor({ state: "detached" });
    await allAnswered(answers);
    expectOneAlertAnswered(answers);
    expect(await alertThresholds(suite.page)).toEqual([111]);
  });

  it("in the Spread Alerts panel creates exactly one alert", async () => {
    await suite.page.getByRole("button", { name: "Show Alerts Section" }).click();
    const panel = alertsPanel(suite.page);
    await panel.getByRole("button", { name: "Add Alert" }).click();
    const form = panel.getByRole("form", { name: "Add Alert" });
    await form.getByLabel("Threshold").fill("222");
    const answers = answersTo(suite.page, "alerts.create");
    await doubleClick(form.getByRole("button", { name: "Create Alert" }));
    await form.waitFor({ state: "detached" });
    await allAnswered(answers);
    expectOneAlertAnswered(answers);
    expect(await alertThresholds(suite.page)).toEqual([111, 222]);
  });

  it("the panel's button is disabled while its create is pending", async () => {
    const panel = alertsPanel(suite.page);
    await panel.getByRole("button", { name: "Add Alert" }).click();
    const form = panel.getByRole("form", { name: "Add Alert" });
    await form.getByLabel("Threshold").fill("333");
    const release = await holdRequests(suite.page, procedure("alerts.create"));
    const button = form.getByRole("button", { name: "Create Alert" });
    await button.click();
    await expect.poll(() => button.isDisabled()).toBe(true);
    release();
    await form.waitFor({ state: "detached" });
    expect(await alertThresholds(suite.page)).toEqual([111, 222, 333]);
  });
});

describe("double-clicking Add User", () => {
  it("creates exactly one user and reports success", async () => {
    const page = await openPage(suite.browser);
    await signIn(page, suite.app.url, ADMIN.username, ADMIN.password);
    await page.getByRole("link", { name: "Admin" }).click();
    await page.waitForURL(`${suite.app.url}/admin`);
    const form = page.getByRole("form", { name: "Add New User" });
    await form.getByLabel("Username", { exact: true }).fill("carol");
    await form.getByLabel("Password", { exact: true }).fill("carol-secret");
    const answers = answersTo(page, "users.create");
    await doubleClick(form.getByRole("button", { name: "Add User" }));
    // Without the key the second call is answered 409 "already exists" (shown or not, depending
    // on which answer comes last); with it, both calls get the one success.
    // A deadline for a busy machine (expect.poll's own is one second); nothing here is timed.
    await expect
      .poll(() => answers.calls > 0 && answers.bodies.length === answers.calls, {
        timeout: 15_000,
      })
      .toBe(true);
    expect(answers.bodies).toHaveLength(2);
    for (const body of answers.bodies)
      expect(body).toMatchObject({ result: { data: { status: "success" } } });
    await form.getByText("User created successfully", { exact: true }).waitFor();
    expect(await form.getByText(/already exists/).count()).toBe(0);
    const { json } = await rest(page, "GET", "/api/auth/users");
    const names = (json.users as Array<{ username: string }>).map((user) => user.username);
    expect(names.filter((name) => name === "carol")).toEqual(["carol"]);
    await closePage(page);
  });
});
