import type { Locator, Page } from "playwright-core";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { addAlertButton, alertsPanel, bells, modal, rest } from "./alerts.ts";
import { playedSounds, spyOnAudio } from "./audio-spy.ts";
import { freshFixture } from "./fixtures.ts";
import { ADMIN, signIn, startApp } from "./harness.ts";
import { recordRequests } from "./requests.ts";
import { closePage, openPage } from "./spare-page.ts";
import { signedInSuite } from "./suite.ts";

// The small things a trader trips over on the alert screens. The fixture's spreads hold still:
// nothing fires here. The server refuses http:// webhooks (no WEBHOOK_ALLOW_PRIVATE).
const WAIT = { timeout: 30_000 };
const ADA = { username: "ada", password: "ada-secret", alerts_enabled: true };
const NED = { username: "ned", password: "ned-secret", alerts_enabled: false };

const suite = signedInSuite({
  app: () => startApp(freshFixture()),
  users: [ADA, NED],
  page: { width: 1400, height: 900 },
  beforeLogin: spyOnAudio,
  as: ADA,
  waitFor: (page) => addAlertButton(page, "GC_BUY"),
});

const modalButton = (name: string) => modal(suite.page).getByRole("button", { name, exact: true });

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error("not on screen");
  return found;
}

/** Whether `right` sits on the same line as `left`, after it. */
async function besideEachOther(left: Locator, right: Locator): Promise<boolean> {
  const [a, b] = [await box(left), await box(right)];
  return Math.abs(a.y - b.y) < 2 && b.x >= a.x + a.width;
}

describe("the alert modal", () => {
  afterEach(async () => {
    // Whatever a test left, the next one starts on the desktop dashboard with no dialog.
    await suite.page.setViewportSize({ width: 1400, height: 900 });
    if ((await modal(suite.page).count()) > 0) await suite.page.keyboard.press("Escape");
    await modal(suite.page).waitFor({ state: "detached" });
  });

  it("keeps Update Alert beside Cancel in Edit Alert, at 1400 and at 390 px", async () => {
    for (const threshold of [100, 150])
      await rest(suite.page, "POST", "/api/alerts", { commodityType: "GC_BUY", threshold });
    await suite.page.reload();
    await bells(suite.page, "GC_BUY").first().click();
    await modalButton("Delete All").waitFor();
    expect(await besideEachOther(modalButton("Cancel"), modalButton("Update Alert"))).toBe(true);
    await suite.page.setViewportSize({ width: 390, height: 844 });
    expect(await besideEachOther(modalButton("Cancel"), modalButton("Update Alert"))).toBe(true);
    expect(await besideEachOther(modalButton("Delete"), modalButton("Delete All"))).toBe(true);
  });

  it("offers Delete All only when editing, not in a new alert's dialog", async () => {
    await addAlertButton(suite.page, "GC_BUY").click();
    await modalButton("Create Alert").waitFor();
    expect(await modalButton("Delete All").count()).toBe(0);
    expect(await modalButton("Delete").count()).toBe(0);
    expect(await besideEachOther(modalButton("Cancel"), modalButton("Create Alert"))).toBe(true);
  });
});

describe("Test in the alerts list", () => {
  it("lights the button and says what plays", async () => {
    await suite.page.getByRole("button", { name: "Show Alerts Section" }).click();
    const item = alertsPanel(suite.page).locator("li.alert-item").first();
    const test = item.getByRole("button", { name: "Test", exact: true });
    const state = item.locator("[data-field='test-state']");
    expect(await state.textContent()).toBe("");
    await test.click();
    await state.getByText("▶ Playing Beep…", { exact: true }).waitFor();
    expect(await test.getAttribute("data-playing")).toBe("true");
    expect((await playedSounds(suite.page)).at(-1)?.src).toBe("/sounds/beep.wav");
    // A moment later the button is plain again.
    await state.getByText("▶ Playing Beep…").waitFor({ state: "detached" });
    expect(await test.getAttribute("data-playing")).toBeNull();
  });
});

describe("a permission an admin grants", () => {
  let ned: Page;
  afterAll(() => closePage(ned));

  /** The admin's REST session: a login of their own, as the Admin page would make. */
  async function setAlerts(value: boolean): Promise<void> {
    const login = await fetch(`${suite.app.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(ADMIN),
    });
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const users = (await (
      await fetch(`${suite.app.url}/api/auth/users`, { headers: { cookie } })
    ).json()) as { users: { id: number; username: string }[] };
    const id = users.users.find((u) => u.username === NED.username)?.id;
    const put = await fetch(`${suite.app.url}/api/auth/users/${id}/permissions`, {
      method: "PUT",
      headers: { "content-type": "application/json", cookie, origin: suite.app.url },
      body: JSON.stringify({ permission: "alerts_enabled", value }),
    });
    expect(put.status).toBe(200);
  }

  it("reaches the user's open dashboard without a reload, and so does taking it away", async () => {
    ned = await openPage(suite.browser);
    await signIn(ned, suite.app.url, NED.username, NED.password);
    const cell = ned.locator("tr[data-symbol='GC_BUY'] [data-col='alerts']");
    await cell.getByText("No alerts", { exact: true }).waitFor();
    const loads = recordRequests(ned, /\/$/);

    await setAlerts(true);
    // At the next heartbeat (every 10 s): the alert section and the row's plus appear.
    await ned.getByRole("button", { name: "Show Alerts Section" }).waitFor(WAIT);
    await addAlertButton(ned, "GC_BUY").waitFor();
    await setAlerts(false);
    await ned.getByRole("button", { name: "Show Alerts Section" }).waitFor({
      state: "detached",
      ...WAIT,
    });
    await cell.getByText("No alerts", { exact: true }).waitFor();
    expect(loads).toEqual([]);
  });
});

describe("the webhook form on the profile", () => {
  const section = () => suite.page.getByRole("region", { name: "Webhook" });

  it("names every problem of an http:// URL with a short secret at once", async () => {
    await suite.page.getByRole("link", { name: "Profile" }).click();
    await section().getByLabel("Webhook URL", { exact: true }).fill("http://hooks.example.com/h");
    await section().getByLabel("Secret", { exact: true }).fill("short");
    await section().getByRole("button", { name: "Save", exact: true }).click();
    await section()
      .getByText(
        "The webhook URL must start with https://. The secret must be 16 to 256 characters long.",
        { exact: true },
      )
      .waitFor();
    await section().locator("[data-webhook='unset']").waitFor();
  });
});
