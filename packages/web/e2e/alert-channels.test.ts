import type { Locator } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { FakeWebhook } from "../../api/test/fakes/fake-webhook.ts";
import {
  addAlertButton,
  alertsPanel,
  bells,
  modal,
  rest,
  thresholdInput,
  tooltipLines,
  trpcInput,
} from "./alerts.ts";
import { goldSwingApp } from "./gold-swing.ts";
import { procedure } from "./requests.ts";
import { signedInSuite } from "./suite.ts";

// A trader whose bot takes the webhook: one notification limit for the server's channels,
// shown and named by the channels ticked, and a webhook-only alert that fires up to it. GC_BUY
// swings across 100 every 2 s (fixtures.ts); the server fires at most once per 30 s of quote
// time, so a limit of 2 is reached about half a minute after the first firing.
const WAIT = { timeout: 30_000 };
const WES = { username: "wes", password: "wes-secret", alerts_enabled: true };
const SECRET = "a-webhook-secret-for-the-bot";
// The receiver is on loopback, which the server allows only with WEBHOOK_ALLOW_PRIVATE.
const receiver = new FakeWebhook();

const suite = signedInSuite({
  app: async () => {
    await receiver.start();
    return goldSwingApp({ WEBHOOK_ALLOW_PRIVATE: "true" });
  },
  users: [WES],
  as: WES,
  waitFor: (page) => addAlertButton(page, "GC_BUY"),
});

afterAll(() => receiver.stop());

const panel = () => alertsPanel(suite.page);
const form = () => panel().getByRole("form");
const item = () => panel().locator("li.alert-item").first();

/** The alert's facts as the list shows them, label → value. */
async function facts(alert: Locator): Promise<Record<string, string>> {
  const pairs = await alert
    .locator(".alert-item__facts > div")
    .evaluateAll((rows) =>
      rows.map((row) => [
        row.querySelector("dt")?.textContent ?? "",
        row.querySelector("dd")?.textContent ?? "",
      ]),
    );
  return Object.fromEntries(pairs);
}

const limitLabels = () =>
  form()
    .locator("label")
    .filter({ hasText: /Notification Limit/ })
    .allTextContents();

describe("the Spread Alerts form", () => {
  it("shows one limit whenever Telegram or Webhook is ticked, named by the channels", async () => {
    await suite.page.getByRole("button", { name: "Show Alerts Section" }).click();
    await panel().getByRole("button", { name: "Add Alert" }).click();
    await form().waitFor();
    expect(await limitLabels()).toEqual([]);

    await form().getByLabel("Webhook", { exact: true }).check();
    const limit = form().getByLabel("Webhook Notification Limit", { exact: true });
    expect(await limit.locator("option").allTextContents()).toEqual(["1", "2", "3", "4", "5"]);
    await form().getByLabel("Send Telegram Notification").check();
    await form().getByLabel("Telegram + Webhook Notification Limit", { exact: true }).waitFor();
    await form().getByLabel("Webhook", { exact: true }).uncheck();
    await form().getByLabel("Telegram Notification Limit", { exact: true }).waitFor();
    await form().getByLabel("Send Telegram Notification").uncheck();
    expect(await limitLabels()).toEqual([]);
  });

  it("says where to set the webhook only while none is saved", async () => {
    await form().getByLabel("Webhook", { exact: true }).check();
    const hint = form().locator("[data-field='webhook-hint']");
    expect(await hint.textContent()).toBe("Set the webhook URL on the Profile page.");
    await form().getByLabel("Webhook", { exact: true }).uncheck();
    const saved = await rest(suite.page, "PUT", "/api/webhook", {
      url: receiver.url,
      secret: SECRET,
    });
    expect(saved.status).toBe(200);
    await form().getByLabel("Webhook", { exact: true }).check();
    const host = new URL(receiver.url).host;
    await hint
      .getByText(`Firings are POSTed to ${host} (change it on the Profile page).`, { exact: true })
      .waitFor();
  });
});

describe("a webhook-only alert", () => {
  it("is created with its limit and fires to the webhook up to it, the list naming the webhook", async () => {
    await form().getByLabel("Commodity").selectOption({ label: "Gold Buy" });
    await form().getByLabel("Threshold").fill("100");
    await form().getByLabel("Webhook Notification Limit", { exact: true }).selectOption("2");
    const sent = suite.page.waitForRequest(procedure("alerts.create"));
    await form().getByRole("button", { name: "Create Alert" }).click();
    expect(trpcInput(await sent)).toMatchObject({
      telegramNotify: false,
      webhookNotify: true,
      telegramMaxNotifications: 2,
    });
    await form().waitFor({ state: "detached" });
    // The list names the webhook and its limit; on a loaded machine the first firing may already
    // be counted by the time the list is read, so the count is not pinned here.
    expect(await facts(item())).toMatchObject({
      Telegram: "Off",
      Webhook: "On",
      "Webhook Limit": expect.stringMatching(/^[0-2]\/2$/),
    });

    // The first firing goes to the receiver; the list shows it at the latest at its 15 s poll.
    await expect.poll(() => receiver.received.length, WAIT).toBeGreaterThanOrEqual(1);
    await item().locator("[data-field='telegram-limit']").getByText("1/2").waitFor(WAIT);
    expect(await item().locator(".state-badge").textContent()).toBe("Enabled");
    expect((await facts(item()))["Last webhook"]).toMatch(/IST$/);

    // Past the first firing: the second reaches the receiver, and the limit switches it off.
    await expect.poll(() => receiver.received.length, { timeout: 60_000 }).toBe(2);
    const bodies = receiver.received.map((post) => JSON.parse(post.body));
    expect(bodies.map((b) => [b.event, b.count, b.limit])).toEqual([
      ["alert.fired", 1, 2],
      ["alert.fired", 2, 2],
    ]);
    await item().locator(".state-badge").getByText("Disabled", { exact: true }).waitFor(WAIT);
    expect(await item().locator("[data-field='disabled-reason']").textContent()).toMatch(
      /^Webhook limit 2 of 2 reached at \d\d:\d\d IST$/,
    );
    expect(await facts(item())).toMatchObject({ Telegram: "Off", "Webhook Limit": "2/2" });
    const lines = await tooltipLines(suite.page, bells(suite.page, "GC_BUY"));
    expect(lines).toContain("Webhook: Yes");
    expect(lines).toContain("Webhook sent: 2/2");
    expect(lines.some((line) => line.startsWith("Telegram sent"))).toBe(false);
    await suite.page.mouse.move(0, 0);
  });

  it("keeps its Webhook tick and limit in the Edit modal", async () => {
    await bells(suite.page, "GC_BUY").click();
    expect(await modal(suite.page).getByLabel("Send to Webhook").isChecked()).toBe(true);
    expect(await modal(suite.page).getByLabel("Send Telegram Notification").isChecked()).toBe(
      false,
    );
    expect(await modal(suite.page).getByLabel("Notification Limit").inputValue()).toBe("2");
    await modal(suite.page).getByRole("button", { name: "Cancel" }).click();
    await modal(suite.page).waitFor({ state: "detached" });
  });

  it("can be made in the Create modal too, with the limit the modal offers", async () => {
    await addAlertButton(suite.page, "SI_SELL").click();
    await thresholdInput(suite.page).fill("-50");
    expect(await modal(suite.page).getByLabel("Notification Limit").count()).toBe(0);
    await modal(suite.page).getByLabel("Send to Webhook").check();
    await modal(suite.page).getByLabel("Notification Limit").selectOption("5");
    const sent = suite.page.waitForRequest(procedure("alerts.create"));
    await modal(suite.page).getByRole("button", { name: "Create Alert" }).click();
    expect(trpcInput(await sent)).toMatchObject({
      commodityType: "SI_SELL",
      telegramNotify: false,
      webhookNotify: true,
      maxNotifications: 5,
    });
    await modal(suite.page).waitFor({ state: "detached" });
    await bells(suite.page, "SI_SELL").waitFor();
  });
});
