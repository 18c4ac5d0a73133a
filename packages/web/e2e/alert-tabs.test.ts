import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addAlertButton, alertsPanel, bells, popup, rest, spreadRow } from "./alerts.ts";
import { playedSounds, spyOnAudio } from "./audio-spy.ts";
import { GOLD_SWING } from "./fixtures.ts";
import { goldSwingSuite } from "./gold-swing.ts";
import { procedure, recordRequests } from "./requests.ts";

// One login in two tabs of one browser (two pages of one context, one session cookie). GC_BUY
// swings across 100 every 2 s (fixtures.ts), so an alert at 100 fires at the first swing both
// tabs see, and not again for 30 s (the cooldown). Waits are upper bounds.
const WAIT = { timeout: 30_000 };
const TESS = { username: "tess", password: "tess-secret", alerts_enabled: true };
const BELL = "/sounds/bell.wav";

const suite = goldSwingSuite(TESS);

/** The first tab (the suite's page, open first) and a second tab of the same login. */
let first: Page;
let second: Page;
let triggers: { first: string[]; second: string[] };

beforeAll(async () => {
  first = suite.page;
  second = await first.context().newPage();
  await spyOnAudio(second);
  await second.goto(`${suite.app.url}/`);
  await addAlertButton(second, "GC_BUY").waitFor();
  triggers = {
    first: recordRequests(first, procedure("alerts.trigger")),
    second: recordRequests(second, procedure("alerts.trigger")),
  };
});

afterAll(async () => {
  await second?.close();
});

const toasts = (page: Page) => popup(page).locator("[data-notification]");
const messages = (page: Page) => toasts(page).locator(".notification__message").allTextContents();
const bellsPlayed = async (page: Page) =>
  (await playedSounds(page)).filter((sound) => sound.src === BELL);

describe("one login in two tabs", () => {
  it("fires a browser alert once: one trigger, one sound, the same one toast in each tab", async () => {
    const created = await rest(first, "POST", "/api/alerts", {
      commodityType: "GC_BUY",
      threshold: 100,
      soundId: "bell",
    });
    expect(created.status).toBe(200);
    // Both tabs know the alert before the crossing: each shows its bell (their 15 s poll, or
    // the leader's "recorded" once it fired). Four polls' time: on a loaded machine a poll and
    // its render slip, and once (a CI run) one tab had no bell after two.
    await Promise.all([bellShown(first), bellShown(second)]);

    await Promise.all([toasts(first).first().waitFor(WAIT), toasts(second).first().waitFor(WAIT)]);
    // The sound plays in the same step as the toast of the tab that fired, so with both toasts
    // up every sound of this crossing has been asked for.
    const played = [...(await bellsPlayed(first)), ...(await bellsPlayed(second))];
    expect(played).toHaveLength(1);
    expect([1.5, 0.75]).toContain(played[0]?.rate);
    const shown = { first: await messages(first), second: await messages(second) };
    expect(shown.first).toHaveLength(1);
    expect(shown.second).toEqual(shown.first);
    expect([
      `Spread has reached 100.00 (current: ${GOLD_SWING.high})`,
      `Spread has reached 100.00 (current: ${GOLD_SWING.low})`,
    ]).toContain(shown.first[0]);
  }, 120_000);

  it("records one History entry, which the following tab shows without a reload", async () => {
    await second.getByRole("button", { name: "Show Alerts Section" }).click();
    await alertsPanel(second).waitFor();
    await second.getByRole("tab", { name: "History", exact: true }).click();
    const rows = second.getByRole("table", { name: "Alert history" }).locator("tbody tr");
    await rows.first().waitFor(WAIT);
    expect(await rows.count()).toBe(1);
    expect(await rows.first().getAttribute("data-source")).toBe("browser");
    const history = await rest(first, "GET", "/api/alerts/history");
    expect(history.json.entries).toHaveLength(1);
    expect(count(triggers.first) + count(triggers.second)).toBe(1);
  });

  it("lets the other tab take over when the one that fired is closed", async () => {
    const leader = count(triggers.first) === 1 ? first : second;
    const follower = leader === first ? second : first;
    await leader.close();
    // The next firing, after the 30 s cooldown, is the remaining tab's own: its sound, its
    // trigger and a second toast.
    await expect.poll(() => toasts(follower).count(), { timeout: 60_000 }).toBe(2);
    expect(await bellsPlayed(follower)).toHaveLength(1);
    const entries = async () =>
      ((await rest(follower, "GET", "/api/alerts/history")).json.entries as unknown[]).length;
    await expect.poll(entries, WAIT).toBe(2);
  });
});

/** Waits for the tab's GC_BUY bell; if it never shows, says what the tab had instead. */
async function bellShown(page: Page): Promise<void> {
  try {
    await bells(page, "GC_BUY").waitFor({ timeout: 60_000 });
  } catch (error) {
    const tab = page === first ? "first" : "second";
    const row = await spreadRow(page, "GC_BUY")
      .evaluate((element) => element.outerHTML)
      .catch(String);
    const listed = await rest(page, "GET", "/api/alerts").catch(String);
    throw new Error(
      `no bell in the ${tab} tab; its row: ${row}; its GET /api/alerts: ${JSON.stringify(listed)}`,
      { cause: error },
    );
  }
}

/** Triggers of one tab's firings ride batched requests: count procedures, not requests. */
function count(urls: string[]): number {
  return urls.join(",").match(/alerts\.trigger/g)?.length ?? 0;
}
