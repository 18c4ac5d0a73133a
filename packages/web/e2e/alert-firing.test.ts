import { describe, expect, it } from "vitest";
import {
  addAlertButton,
  alertsPanel,
  bells,
  modal,
  popup,
  rest,
  spreadRow,
  thresholdInput,
  waitForTooltipLine,
} from "./alerts.ts";
import { playedSounds, spyOnAudio } from "./audio-spy.ts";
import { answerDialogs } from "./dialogs.ts";
import { GOLD_SWING, goldSwingCsv } from "./fixtures.ts";
import { startApp, telegramEnv } from "./harness.ts";
import { procedure, recordRequests } from "./requests.ts";
import { signedInSuite } from "./suite.ts";

// GC_BUY swings between +128.38 and +88.38 every 2 s for as long as the file runs (replay at
// speed 1), so an alert at 100 made at any moment sees its first crossing within 2 s of the
// watcher learning its side: no test waits on a wall-clock schedule. Waits are upper bounds.
const WAIT = { timeout: 30_000 };
const TICKS = 600;
const CHAT_ID = "4242";

const DAVE = { username: "dave", password: "dave-secret", alerts_enabled: true };

const suite = signedInSuite({
  telegram: {},
  app: ({ telegram }) =>
    startApp({
      feed: "replay",
      replayCsv: goldSwingCsv(Date.now() + 5_000, TICKS),
      replaySpeed: 1,
      // The quotes keep the file's timestamps: on a loaded machine a slow start leaves them
      // seconds old, and past the default 10 s window every crossing would be held, not sent.
      env: { ...telegramEnv(telegram.apiRoot), FEED_SILENCE_SECONDS: "60" },
    }),
  users: [DAVE],
  beforeLogin: spyOnAudio,
  as: DAVE,
  waitFor: (page) => addAlertButton(page, "GC_BUY"),
});

const notifications = () => popup(suite.page).locator("[data-notification]");

/** What the popup says, item by item, newest first. */
function shown(): Promise<Array<{ title: string; message: string }>> {
  return notifications().evaluateAll((items) =>
    items.map((item) => ({
      title: item.querySelector(".notification__title")?.textContent ?? "",
      message: item.querySelector(".notification__message")?.textContent ?? "",
    })),
  );
}

/** The two texts a firing of an alert at `threshold` on GC_BUY can show, by new side. */
function expectedFiring(threshold: string) {
  return {
    above: `Spread has reached ${threshold} (current: ${GOLD_SWING.high})`,
    below: `Spread has reached ${threshold} (current: ${GOLD_SWING.low})`,
  };
}

async function deleteAllGoldBuyAlerts(): Promise<void> {
  await bells(suite.page, "GC_BUY").first().click();
  const dialogs = answerDialogs(suite.page, [true]);
  await modal(suite.page).getByRole("button", { name: "Delete All" }).click();
  expect(await dialogs).toEqual(["Are you sure you want to delete ALL alerts for GC_BUY?"]);
  // docs/decisions.md: the result is a message that clears itself, not a second dialog.
  await suite.page
    .getByRole("status")
    .filter({ hasText: "All alerts for GC_BUY have been deleted." })
    .waitFor();
  await bells(suite.page, "GC_BUY").first().waitFor({ state: "detached" });
}

describe("the browser watcher", () => {
  it("shows no popup before anything fired", async () => {
    expect(await popup(suite.page).count()).toBe(0);
  });

  it("fires on a crossing: posts the trigger, plays the sound at the side's pitch, notifies", async () => {
    const triggers = recordRequests(suite.page, procedure("alerts.trigger"));
    await addAlertButton(suite.page, "GC_BUY").click();
    await thresholdInput(suite.page).fill("100");
    await modal(suite.page).getByLabel("Alert Sound").selectOption("bell");
    await modal(suite.page).getByRole("button", { name: "Create Alert" }).click();
    await modal(suite.page).waitFor({ state: "detached" });

    await notifications().first().waitFor(WAIT);
    const [first, ...rest] = await shown();
    expect(rest).toEqual([]);
    expect(first?.title).toBe("Gold Buy");
    const texts = expectedFiring("100.00");
    expect([texts.above, texts.below]).toContain(first?.message);
    const rate = first?.message === texts.above ? 1.5 : 0.75;

    const played = (await playedSounds(suite.page)).filter((s) => s.src === "/sounds/bell.wav");
    expect(played).toEqual([{ src: "/sounds/bell.wav", rate, preservesPitch: false }]);
    expect(triggers).toHaveLength(1);
  });

  it("counts the firing in the bell's tooltip and the panel", async () => {
    const lines = await waitForTooltipLine(suite.page, bells(suite.page, "GC_BUY"), "Count: 1");
    expect(lines).toEqual([
      "Threshold: 100.00",
      "Status: Enabled",
      "Sound: Bell",
      "Telegram: No",
      "Limit: 1",
      "Count: 1",
    ]);
    await suite.page.mouse.move(0, 0);
    await suite.page.getByRole("button", { name: "Show Alerts Section" }).click();
    const lastBrowser = alertsPanel(suite.page).locator("[data-field='last-browser']");
    expect(await lastBrowser.textContent()).toMatch(/^\d{1,2}\/\d{1,2}\/\d{4}, .+ IST$/);
    // Telegram off: no Telegram count or last delivery.
    expect(await alertsPanel(suite.page).locator("[data-field='last-telegram']").count()).toBe(0);
  });

  it("keeps the newest 10 notifications, newest first, each dismissible, and Clear All", async () => {
    // Eleven more alerts on the same spread, all crossing at the next swing.
    const triggers = recordRequests(suite.page, procedure("alerts.trigger"));
    const thresholds = Array.from({ length: 11 }, (_, i) => 101 + i);
    for (const threshold of thresholds) {
      const created = await rest(suite.page, "POST", "/api/alerts", {
        commodityType: "GC_BUY",
        threshold,
        soundId: "ding",
      });
      expect(created.status).toBe(200);
    }
    // Made behind the page's back, they reach its watcher at its next 15 s poll of the alerts,
    // or at once on a reload, as when the dashboard is opened again; then they fire within one
    // swing. The toasts show the newest three and fold the rest of the ten into "7 more"
    // (docs/user-guide.md, "The dashboard").
    await suite.page.reload();
    await popup(suite.page).getByRole("button", { name: "7 more" }).click(WAIT);
    expect(await notifications().count()).toBe(10);
    // Triggers made together ride one batched request, so count procedures, not requests.
    const triggered = () => triggers.join(",").match(/alerts\.trigger/g)?.length ?? 0;
    await expect.poll(triggered, WAIT).toBeGreaterThanOrEqual(11);
    const items = await shown();
    expect(items).toHaveLength(10);
    expect(items.every((item) => item.title === "Gold Buy")).toBe(true);
    // The alerts fire in the order they were made, so newest first means falling thresholds;
    // eleven firings into ten places pushed out at least the oldest of them, at 101.
    const reached = items
      .map((item) => Number(/reached (\d+)\.00/.exec(item.message)?.[1]))
      .filter((threshold) => threshold > 100);
    expect(reached).toEqual([...reached].sort((a, b) => b - a));
    expect(reached).not.toContain(101);
    expect(reached[0]).toBe(111);

    // Stop the firing before counting what is left.
    await deleteAllGoldBuyAlerts();
    const before = await shown();
    await notifications().first().getByRole("button", { name: "Dismiss notification" }).click();
    expect(await shown()).toEqual(before.slice(1));
    await popup(suite.page).getByRole("button", { name: "Clear All" }).click();
    await popup(suite.page).waitFor({ state: "detached" });
  });
});

describe("the server's Telegram alerts", () => {
  it("sends the alert to Telegram up to its limit, then the list shows it disabled", async () => {
    const connected = await rest(suite.page, "POST", "/api/telegram/connect", { chatId: CHAT_ID });
    expect(connected.json).toEqual({ status: "success", connected: true });
    const sentBefore = suite.telegram.textsTo(CHAT_ID).length;
    // Connected behind the page's back: a reload shows it, as coming back from Profile would.
    await suite.page.reload();
    await suite.page.getByRole("button", { name: "Show Alerts Section" }).click();
    await suite.page.locator("[data-telegram='connected']").waitFor();

    const panel = alertsPanel(suite.page);
    await panel.getByRole("button", { name: "Add Alert" }).click();
    const form = panel.getByRole("form", { name: "Add Alert" });
    await form.getByLabel("Commodity").selectOption({ label: "Gold Buy" });
    await form.getByLabel("Threshold").fill("100");
    await form.getByLabel("Send Telegram Notification").check();
    await form.getByRole("button", { name: "Create Alert" }).click();
    await form.waitFor({ state: "detached" });

    const item = panel.locator("li.alert-item");
    await item.waitFor();
    // The first crossing can come before the list shows the alert: count what reached the chat
    // since the connect, not from the moment the item appeared.
    const alertTexts = () =>
      suite.telegram
        .textsTo(CHAT_ID)
        .slice(sentBefore)
        .filter((text) => text.includes("Gold Buy spread alert"));
    await expect.poll(() => alertTexts().length, WAIT).toBeGreaterThanOrEqual(1);

    // The server disabled it at its limit of 1; the page learns it at the latest by its poll.
    await item.locator(".state-badge").getByText("Disabled", { exact: true }).waitFor(WAIT);
    expect(alertTexts()).toHaveLength(1);
    expect(await item.locator("[data-field='telegram-limit']").textContent()).toBe("1/1");
    expect(await item.locator("[data-field='telegram']").textContent()).toBe("On");
    expect(await item.locator("[data-field='last-telegram']").textContent()).toMatch(/IST$/);
    await spreadRow(suite.page, "GC_BUY").locator("button.bell--off").waitFor();
    await waitForTooltipLine(suite.page, bells(suite.page, "GC_BUY"), "Telegram sent: 1/1");
    await suite.page.mouse.move(0, 0);
  });

  it("starts counting again when the alert is enabled again", async () => {
    const item = alertsPanel(suite.page).locator("li.alert-item");
    await item.getByRole("button", { name: "Enable" }).click();
    await item.locator(".state-badge").getByText("Enabled", { exact: true }).waitFor();
    expect(await item.locator("[data-field='telegram-limit']").textContent()).toBe("0/1");
  });
});
