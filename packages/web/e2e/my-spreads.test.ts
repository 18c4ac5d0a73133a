import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { FakeWebhook } from "../../api/test/fakes/fake-webhook.ts";
import { alertsPanel, rest } from "./alerts.ts";
import { answerNextDialog } from "./dialogs.ts";
import { startApp, telegramEnv } from "./harness.ts";
import { builder, fillLeg, mySpreads, ownSpreads, SIGNED, spreadGroup } from "./spreads.ts";
import { signedInSuite } from "./suite.ts";

// docs/user-guide.md "Spreads of your own", in Chromium on the production start: a trader builds a
// GOLD near/next calendar from the template and a gold/silver ratio by typing its formula, sees
// both live in My spreads with their legs, charts them with the history before they existed marked
// "from leg closes" and ± σ bands, sets a z-score alert on one and receives it on a fake
// Telegram and a webhook receiver; formulas that try to escape get the server's 400 beside the
// formula and create nothing. The simulator quotes every instrument in use (GOLD@next once the
// calendar puts it in use) and backfills history, so z and bands have something to stand on.
const WAIT = { timeout: 60_000 };
/** A test that waits on live values, statistics or a firing: several WAITs long. */
const LONG = 240_000;
const TARA = { username: "tara", password: "tara-secret", alerts_enabled: true };
const CHAT_ID = "5151";
const receiver = new FakeWebhook();

const suite = signedInSuite({
  telegram: {},
  app: async ({ telegram }) => {
    await receiver.start();
    return startApp({
      feed: "simulator",
      env: { ...telegramEnv(telegram.apiRoot), WEBHOOK_ALLOW_PRIVATE: "true" },
    });
  },
  users: [TARA],
  as: TARA,
  waitFor: (page) => mySpreads(page).getByRole("button", { name: "New spread" }),
});

afterAll(() => receiver.stop());

const CALENDAR = "GOLD near/next calendar";
const RATIO = "Gold/Silver ratio";

/** The symbol (SP7) the server gave the definition called `name`. */
async function symbolOf(name: string): Promise<string> {
  const spread = (await ownSpreads(suite.page)).find((each) => each.name === name);
  if (!spread) throw new Error(`no spread called ${name}`);
  return spread.symbol;
}

/**
 * Waits for the webhook of the z alert on `symbol`. The simulator's ratio is a random walk: it
 * mostly comes back through a level within seconds, but a loaded CI run met two minutes without
 * a crossing. So while nothing has arrived the threshold moves to the server's z of the moment
 * every 15 s, each move a fresh chance; the waiting ends at a deadline.
 */
async function untilFired(page: Page, symbol: string): Promise<void> {
  const { json } = await rest(page, "GET", "/api/alerts");
  const alert = (json.alerts as Array<{ id: number; commodityType: string }>).find(
    (each) => each.commodityType === symbol,
  );
  if (!alert) throw new Error(`no alert on ${symbol}`);
  let movedAt = Date.now();
  await expect
    .poll(
      async () => {
        if (receiver.received.length === 0 && Date.now() - movedAt > 15_000) {
          movedAt = Date.now();
          const stats = await rest(page, "GET", `/api/spread-stats/${symbol}`);
          const z = (stats.json as { z?: number | null }).z;
          if (typeof z === "number") {
            const moved = await rest(page, "PUT", `/api/alerts/${alert.id}`, {
              threshold: Number(z.toFixed(2)),
            });
            expect(moved.status).toBe(200);
          }
        }
        return receiver.received.length;
      },
      { timeout: 200_000, interval: 1_000 },
    )
    .toBeGreaterThan(0);
}

describe("building spreads", () => {
  it(
    "builds a GOLD near/next calendar from the template and shows it live",
    async () => {
      const { page } = suite;
      await mySpreads(page).getByRole("button", { name: "New spread" }).click();
      const dialog = builder(page);
      await dialog
        .getByLabel("Template", { exact: true })
        .selectOption({ label: "Calendar: two months" });
      await dialog.getByLabel("Future", { exact: true }).selectOption("GOLD");
      await dialog.getByLabel("First month").selectOption("near");
      await dialog.getByLabel("Second month").selectOption("next");
      await dialog.getByRole("button", { name: "Fill in legs and formula" }).click();
      expect(await dialog.getByLabel("Name", { exact: true }).inputValue()).toBe(CALENDAR);
      expect(await dialog.getByLabel("Formula", { exact: true }).inputValue()).toBe("a - b");
      expect(await dialog.getByLabel("Leg 2 instrument").inputValue()).toBe("GOLD@next");
      // One lot of each month, so the calendar has a Net / lot.
      expect(await dialog.getByLabel("Leg 1 lots").inputValue()).toBe("1");
      expect(await dialog.getByLabel("Leg 2 lots").inputValue()).toBe("1");
      await dialog.getByRole("button", { name: "Create spread" }).click();
      await dialog.waitFor({ state: "detached", ...WAIT });

      const symbol = await symbolOf(CALENDAR);
      expect(symbol).toMatch(/^SP\d+$/);
      const group = spreadGroup(page, CALENDAR);
      // GOLD@next was put in use by the definition: its quotes, and so the spread, follow.
      for (const side of ["BUY", "SELL"]) {
        const row = group.locator(`tr[data-symbol='${symbol}_${side}']`);
        await expect
          .poll(() => row.locator("[data-col='spread']").textContent(), WAIT)
          .toMatch(SIGNED);
      }
      // a − b buys a at its ask and sells b at its bid.
      const legs = group.locator(`tr[data-symbol='${symbol}_BUY'] [data-col='legs']`);
      expect(await legs.textContent()).toMatch(/^a [\d.]+ ask · b [\d.]+ bid$/);
      await expect
        .poll(
          () =>
            group.locator(`tr[data-symbol='${symbol}_BUY'] [data-col='net-per-lot']`).textContent(),
          WAIT,
        )
        .toMatch(/^[−-]?[\d,]+$/);
    },
    LONG,
  );

  it(
    "builds a gold/silver ratio by typing legs and formula, both live at once",
    async () => {
      const { page } = suite;
      await mySpreads(page).getByRole("button", { name: "New spread" }).click();
      const dialog = builder(page);
      await dialog.getByLabel("Name", { exact: true }).fill(RATIO);
      await fillLeg(dialog, 0, { name: "g", instrument: "GOLD" });
      await fillLeg(dialog, 1, { name: "s", instrument: "SILVER" });
      await dialog.getByLabel("Formula", { exact: true }).fill("g / s");
      await dialog.getByRole("button", { name: "Create spread" }).click();
      await dialog.waitFor({ state: "detached", ...WAIT });

      const ratio = await symbolOf(RATIO);
      const calendar = await symbolOf(CALENDAR);
      // g ÷ s buys g at its ask and s at its bid; the ratio is near 1, so shown to 4 decimals.
      const buy = spreadGroup(page, RATIO).locator(`tr[data-symbol='${ratio}_BUY']`);
      await expect
        .poll(() => buy.locator("[data-col='spread']").textContent(), WAIT)
        .toMatch(/^\+\d+\.\d{4}$/);
      expect(await buy.locator("[data-col='legs']").textContent()).toMatch(
        /^g [\d.]+ ask · s [\d.]+ bid$/,
      );
      // Both at once: the calendar's row still has its value.
      const calendarBuy = mySpreads(page).locator(
        `tr[data-symbol='${calendar}_BUY'] [data-col='spread']`,
      );
      expect(await calendarBuy.textContent()).toMatch(SIGNED);
    },
    LONG,
  );

  it("shows the server's 400 beside the formula, its position marked, and creates nothing", async () => {
    const { page } = suite;
    const before = await ownSpreads(page);
    await mySpreads(page).getByRole("button", { name: "New spread" }).click();
    const dialog = builder(page);
    const error = dialog.locator("[data-field='formula-error']");
    // The name is checked before the formula: give one, so the formula is what is refused.
    await dialog.getByLabel("Name", { exact: true }).fill("escape attempt");
    const attempts: [formula: string, message: RegExp, marked: string][] = [
      ["a - constructor", /^unknown name `constructor` at 5$/, "constructor"],
      ["a - b.__proto__", /^property access is not allowed at 5$/, "b"],
      ["process.exit(1) + a + b", /at 1$/, "process"],
      ["a - b + eval(a)", /at 9$/, "eval"],
    ];
    for (const [formula, message, marked] of attempts) {
      await dialog.getByLabel("Formula", { exact: true }).fill(formula);
      await dialog.getByRole("button", { name: "Create spread" }).click();
      await error.waitFor();
      expect(await error.textContent()).toMatch(message);
      expect(await dialog.locator(".formula-field__mark").textContent()).toBe(marked);
      expect(await dialog.getByLabel("Formula", { exact: true }).getAttribute("aria-invalid")).toBe(
        "true",
      );
    }
    // Typing again clears the mark: it was of the formula as sent.
    await dialog.getByLabel("Formula", { exact: true }).fill("a - b");
    await error.waitFor({ state: "detached", ...WAIT });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached", ...WAIT });
    // Deeper than any input allows: straight to the API, refused the same way.
    const deep = `${"(".repeat(10_000)}a${")".repeat(10_000)} - b`;
    const refused = await rest(page, "POST", "/api/spreads", {
      name: "deep",
      legs: [
        { name: "a", instrument: "GOLD" },
        { name: "b", instrument: "SILVER" },
      ],
      formula: deep,
    });
    expect(refused.status).toBe(400);
    expect(await ownSpreads(page)).toEqual(before);
  });

  it("shows every error at once: an empty name and a formula that does not compile", async () => {
    const { page } = suite;
    const before = await ownSpreads(page);
    await mySpreads(page).getByRole("button", { name: "New spread" }).click();
    const dialog = builder(page);
    await dialog.getByLabel("Name", { exact: true }).fill("");
    await dialog.getByLabel("Formula", { exact: true }).fill("a +");
    await dialog.getByRole("button", { name: "Create spread" }).click();
    const name = dialog.locator("[data-field='name-error']");
    const formula = dialog.locator("[data-field='formula-error']");
    await name.waitFor();
    await formula.waitFor();
    expect(await name.textContent()).toBe("must not be empty");
    expect(await formula.textContent()).toMatch(/at 4$/);
    // Each goes with its own field's edit.
    await dialog.getByLabel("Name", { exact: true }).fill("fixed");
    await name.waitFor({ state: "detached", ...WAIT });
    expect(await formula.count()).toBe(1);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached", ...WAIT });
    expect(await ownSpreads(page)).toEqual(before);
  });

  it("makes one spread of a double click on Create spread", async () => {
    const { page } = suite;
    const before = (await ownSpreads(page)).length;
    await mySpreads(page).getByRole("button", { name: "New spread" }).click();
    const dialog = builder(page);
    await dialog.getByLabel("Template", { exact: true }).selectOption("mini");
    await dialog.getByRole("button", { name: "Fill in legs and formula" }).click();
    const name = await dialog.getByLabel("Name", { exact: true }).inputValue();
    // Both clicks reach the button before React re-renders it disabled.
    await dialog
      .getByRole("button", { name: "Create spread" })
      .evaluate((button: HTMLButtonElement) => {
        button.click();
        button.click();
      });
    await dialog.waitFor({ state: "detached", ...WAIT });
    await spreadGroup(page, name).waitFor();
    const after = await ownSpreads(page);
    expect(after).toHaveLength(before + 1);
    expect(after.filter((spread) => spread.name === name)).toHaveLength(1);
  });
});

describe("a z-score alert on a spread of one's own", () => {
  it(
    "is set in the Spread Alerts form and reaches Telegram and the webhook",
    async () => {
      const { page } = suite;
      const ratio = await symbolOf(RATIO);
      expect((await rest(page, "POST", "/api/telegram/connect", { chatId: CHAT_ID })).status).toBe(
        200,
      );
      const telegramBefore = suite.telegram.textsTo(CHAT_ID).length;
      const saved = await rest(page, "PUT", "/api/webhook", {
        url: receiver.url,
        secret: "a-webhook-secret-for-my-spreads",
      });
      expect(saved.status).toBe(200);
      // The z the table shows now: a threshold there is crossed as soon as the ratio moves back.
      const zCell = mySpreads(page).locator(
        `tr[data-symbol='${ratio}_BUY'] [data-col='z'][data-z]`,
      );
      await zCell.waitFor(WAIT);
      const z = Number(await zCell.getAttribute("data-z"));
      await page.getByRole("button", { name: "Show Alerts Section" }).click();
      await alertsPanel(page).getByRole("button", { name: "Add Alert" }).click();
      const form = page.getByRole("form", { name: "Add Alert" });
      // The select names the definition, not its SP symbol.
      await form.getByLabel("Commodity").selectOption({ label: `${RATIO} Buy` });
      await form.getByLabel("Metric").selectOption("zscore");
      await form.getByLabel("Threshold").fill(z.toFixed(2));
      await form.getByLabel("Send Telegram Notification").check();
      await form.getByLabel("Webhook", { exact: true }).check();
      await form.getByRole("button", { name: "Create Alert" }).click();
      // A refusal keeps the form open and says why: the poll's last value names it. A form left
      // open without one says whether its request is still out (the button disabled while it
      // is) and what the threshold field holds: a loaded run once ended here (BENCHMARKS.md §47).
      const refusal = alertsPanel(page).getByRole("alert");
      const create = form.getByRole("button", { name: "Create Alert" });
      await expect
        .poll(async () => {
          if ((await refusal.count()) > 0) return `refused: ${await refusal.textContent()}`;
          if ((await form.count()) === 0) return "closed";
          const waiting = await create.isDisabled().catch(() => "gone");
          const typed = await form
            .getByLabel("Threshold")
            .inputValue()
            .catch(() => "gone");
          return `open (request out: ${waiting}; threshold "${typed}")`;
        }, WAIT)
        .toBe("closed");
      const item = alertsPanel(page).locator("li.alert-item").first();
      expect(await item.locator(".alert-item__title").textContent()).toContain(`${RATIO} Buy`);

      await untilFired(page, `${ratio}_BUY`);
      const fired = JSON.parse(receiver.received[0]?.body ?? "{}");
      expect(fired.event).toBe("alert.fired");
      expect(JSON.stringify(fired)).toContain(`${ratio}_BUY`);
      await expect
        .poll(() => suite.telegram.textsTo(CHAT_ID).length, { timeout: 60_000 })
        .toBeGreaterThan(telegramBefore);
      // History names the spread too.
      await page.getByRole("tab", { name: "History", exact: true }).click();
      const history = page.getByRole("table", { name: "Alert history" });
      await history
        .locator("[data-col='symbol']", { hasText: `${RATIO} Buy` })
        .first()
        .waitFor(WAIT);
    },
    2 * LONG,
  );
});

describe("the Advanced Spread Chart", () => {
  it(
    "offers both spreads, marks the history from leg closes, draws bands and exports CSV",
    async () => {
      const { page } = suite;
      const calendar = await symbolOf(CALENDAR);
      const ratio = await symbolOf(RATIO);
      await page.getByRole("link", { name: "Advanced Charts" }).click();
      await page.waitForURL(/\/advanced-chart$/);
      const select = page.getByLabel("Commodity");
      await select.selectOption({ label: `${CALENDAR} Sell` });
      expect(await select.inputValue()).toBe(`${calendar}_SELL`);
      // GOLD and SILVER were quoted and recorded long before the ratio existed: its chart
      // starts from their closes. (GOLD@next came into use with the calendar: the simulator
      // made its past then, packages/api/test/simulator-history.test.ts.)
      await select.selectOption({ label: `${RATIO} Buy` });
      const chart = page.locator("section.chart");
      await expect.poll(() => chart.getAttribute("data-chart-status"), WAIT).toBe("ok");
      // Before the definition existed, its candles come from its legs' closes: shaded and said so.
      const band = chart.locator(".chart-leg-history");
      await band.getByText("from leg closes", { exact: true }).waitFor(WAIT);
      const until = Number(await band.getAttribute("data-until"));
      // Up to the ratio's first own candle: this hour's, on the 1h chart.
      expect(Math.abs(until - Date.now())).toBeLessThan(2 * 60 * 60_000);
      expect(
        await page.locator("[data-leg-history-until]").getAttribute("data-leg-history-until"),
      ).toBe(String(until));
      // The leg-close candles are drawn: many before `until`.
      const before = await page.evaluate(
        (t) => (window.__spreadChart?.data[0] ?? []).filter((x) => x < t).length,
        until,
      );
      expect(before).toBeGreaterThan(10);
      // A ratio near 1 is drawn in its own size: 4 decimals on the axis, a y range well under
      // the built-ins' minimum of 10 (which would flatten it to a line).
      // (Polled: the calendar charted a moment ago may still be the last value drawn.)
      await expect
        .poll(() => page.getByTestId("chart-last-value").textContent(), WAIT)
        .toMatch(/^\+\d\.\d{4}$/);
      const yRange = await page.evaluate(() => {
        const y = window.__spreadChart?.scales.y;
        return (y?.max ?? 0) - (y?.min ?? 0);
      });
      expect(yRange).toBeGreaterThan(0);
      expect(yRange).toBeLessThan(1);
      const bands = page.getByRole("button", { name: "±σ Bands" });
      await bands.waitFor(WAIT);
      if ((await bands.getAttribute("aria-pressed")) !== "true") await bands.click();
      expect(await bands.getAttribute("aria-pressed")).toBe("true");

      const download = page.waitForEvent("download");
      await page.getByRole("button", { name: "Download CSV" }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe(`${ratio}_BUY-1h.csv`);
      const csv = await readFile((await file.path()) as string, "utf8");
      const lines = csv.trim().split("\n");
      expect(lines[0]).toBe("timestamp_ist,timestamp_ms,open,high,low,close");
      expect(lines.length).toBeGreaterThan(2);
      // A ratio near 1 keeps its digits.
      expect(lines[1]).toMatch(/^"\d{4}-\d\d-\d\d \d\d:\d\d",\d+,\d\.\d{4,},/);
      await page.getByRole("link", { name: "Back to Dashboard" }).click();
      await mySpreads(page).waitFor();
    },
    LONG,
  );
});

describe("editing and deleting", () => {
  it("keeps the alerts on an edit and says so", async () => {
    const { page } = suite;
    if (new URL(page.url()).pathname !== "/") await page.goto(`${suite.app.url}/`);
    await spreadGroup(page, RATIO)
      .getByRole("button", { name: `Edit ${RATIO}` })
      .click();
    const dialog = builder(page);
    await dialog.getByLabel("Name", { exact: true }).fill(`${RATIO} (edited)`);
    await dialog.getByRole("button", { name: "Save spread" }).click();
    await dialog.waitFor({ state: "detached", ...WAIT });
    await page
      .getByRole("status")
      .getByText(`Saved “${RATIO} (edited)”; its alert is kept.`, { exact: true })
      .waitFor();
  });

  it("asks before a delete, saying how many alerts go with it, and deletes both", async () => {
    const { page } = suite;
    const name = `${RATIO} (edited)`;
    const symbol = await symbolOf(name);
    const group = spreadGroup(page, name);
    await group.getByRole("button", { name: `Edit ${name}` }).click();
    const dialog = builder(page);
    // Declined: nothing changes.
    const declined = answerNextDialog(page, false);
    await dialog.getByRole("button", { name: "Delete" }).click();
    expect(await declined).toBe(
      `Delete the spread “${name}”? Your 1 alert on it is deleted with it.`,
    );
    expect((await ownSpreads(page)).some((s) => s.symbol === symbol)).toBe(true);
    const accepted = answerNextDialog(page, true);
    await dialog.getByRole("button", { name: "Delete" }).click();
    await accepted;
    await dialog.waitFor({ state: "detached", ...WAIT });
    await group.waitFor({ state: "detached", ...WAIT });
    expect((await ownSpreads(page)).some((s) => s.symbol === symbol)).toBe(false);
    const alerts = await rest(page, "GET", "/api/alerts");
    const left = (alerts.json.alerts as { commodityType: string }[]).map((a) => a.commodityType);
    expect(left.filter((c) => c.startsWith(`${symbol}_`))).toEqual([]);
  });
});
