import type { Locator, Page, Route } from "playwright-core";
import { describe, expect, it } from "vitest";
import { rest } from "./alerts.ts";
import { fixtureCsv } from "./fixtures.ts";
import { startApp } from "./harness.ts";
import {
  closeDialog,
  closedTrades,
  figure,
  listedPositions,
  openDialog,
  openPositions,
} from "./positions.ts";
import { signedInSuite } from "./suite.ts";

// README "Positions (paper)": how the figures read, in Chromium on the production start with the
// fixed fixture (fixtures.ts: GC_SELL +104.07, SI_BUY −229.45, CL_SELL −3.80, held). Three
// positions typed in through the API: BUY GC at 200 a minute ago (a loss, too young to
// annualise), SELL SI at −300 ten days ago (a loss, annualised), BUY CL at −50 ten days ago (a
// gain). Every negative reads with U+2212 and is red, the totals too; the columns sort.
const WAIT = { timeout: 60_000 };
const LONG = 240_000;
const DAY = 86_400_000;
const MINUS = "\u2212";
const TRADER = { username: "tara", password: "tara-secret-1", alerts_enabled: true };

const suite = signedInSuite({
  // Quotes stamped twenty minutes ahead: nothing greys while the file runs.
  app: () => startApp({ feed: "replay", replayCsv: fixtureCsv(Date.now() + 20 * 60_000) }),
  users: [TRADER],
  as: TRADER,
  page: { width: 1400, height: 900 },
  waitFor: (page) => page.locator("tr[data-symbol='GC_SELL'] [data-col='spread']"),
});

const ids: Record<string, number> = {};

async function open(page: Page, body: Record<string, unknown>): Promise<number> {
  const { status, json } = await rest(page, "POST", "/api/positions", body);
  if (status !== 201)
    throw new Error(`opening ${JSON.stringify(body)}: ${status} ${JSON.stringify(json)}`);
  return (json as { id: number }).id;
}

const row = (page: Page, spread: string) =>
  openPositions(page).locator(`tr[data-spread='${spread}']`);

/**
 * Holds the page's positions.preview requests for `lots` (alone or batched) until released, then
 * lets them through to the server: `asked` settles once the first one is held. The route is in
 * place when this resolves; `release` removes it only once every call of the handler has passed
 * its request on (Playwright passes on a request whose route is removed under a running handler,
 * and the handler's own continue then throws).
 */
async function holdPreviews(
  page: Page,
  lots: number,
): Promise<{ asked: Promise<void>; release: () => Promise<void> }> {
  let asked!: () => void;
  let release!: () => void;
  const seen = new Promise<void>((resolve) => {
    asked = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const running = new Set<Promise<void>>();
  const pattern = /\/api\/trpc\/[^?]*positions\.preview/;
  const pass = async (route: Route) => {
    const input = new URL(route.request().url()).searchParams.get("input") ?? "";
    if (input.includes(`"lots":${lots}`)) {
      asked();
      await released;
    }
    await route.continue();
  };
  const handler = (route: Route) => {
    const call = pass(route);
    running.add(call);
    return call.finally(() => running.delete(call));
  };
  await page.route(pattern, handler);
  return {
    asked: seen,
    release: async () => {
      release();
      while (running.size > 0) await Promise.all(running);
      await page.unroute(pattern, handler);
    },
  };
}

/** The colour a figure is painted in. */
const colour = (item: Locator) => item.evaluate((e) => getComputedStyle(e).color);

/** The theme's --negative and --positive as the page paints them. */
async function signColours(page: Page): Promise<{ negative: string; positive: string }> {
  return page.evaluate(() => {
    const probe = document.createElement("span");
    document.body.append(probe);
    probe.style.color = "var(--negative)";
    const negative = getComputedStyle(probe).color;
    probe.style.color = "var(--positive)";
    const positive = getComputedStyle(probe).color;
    probe.remove();
    return { negative, positive };
  });
}

describe("the Positions figures", () => {
  it(
    "write every negative with U+2212 and annualise only from a week held",
    async () => {
      const { page, app } = suite;
      const now = Date.now();
      ids.GC = await open(page, {
        spread: "GC",
        side: "BUY",
        lots: 1,
        entry: 200,
        openedAt: now - 60_000,
      });
      ids.SI = await open(page, {
        spread: "SI",
        side: "SELL",
        lots: 1,
        entry: -300,
        openedAt: now - 10 * DAY,
      });
      ids.CL = await open(page, {
        spread: "CL",
        side: "BUY",
        lots: 1,
        entry: -50,
        openedAt: now - 10 * DAY,
      });
      await page.goto(`${app.url}/positions`);
      for (const spread of ["GC", "SI", "CL"])
        await expect.poll(() => figure(row(page, spread), "net"), WAIT).not.toBeNull();

      expect(await row(page, "SI").locator("[data-field='entry']").textContent()).toBe(
        `${MINUS}300.00`,
      );
      expect(await row(page, "SI").locator("[data-field='mark']").textContent()).toBe(
        `${MINUS}229.45`,
      );
      expect(await row(page, "GC").locator("[data-field='mark']").textContent()).toBe("+104.07");
      // No hyphen as a minus anywhere on the table: figures, percentages, ₹.
      const text = (await openPositions(page).textContent()) ?? "";
      expect(text).not.toMatch(/-[\d₹]/);
      expect(text).toContain(`${MINUS}₹`);
      const siReturn = row(page, "SI").locator("[data-field='return']");
      expect(await siReturn.textContent()).toMatch(new RegExp(`^${MINUS}\\d+\\.\\d\\d %$`));

      // A minute old: no annualised figure; ten days: one, with the same minus sign.
      expect(await row(page, "GC").locator("[data-field='return-annualised']").textContent()).toBe(
        "—",
      );
      expect(
        await row(page, "SI").locator("[data-field='return-annualised']").textContent(),
      ).toMatch(new RegExp(`^${MINUS}[\\d,]+\\.\\d\\d % a year$`));
    },
    LONG,
  );

  it(
    "colour the totals' return like the rows, on a desktop and a phone",
    async () => {
      const { page } = suite;
      const { negative, positive } = await signColours(page);
      expect(negative).not.toBe(positive);
      const totals = openPositions(page).locator("[data-row='totals']");
      const total = totals.locator("[data-field='total-return']");
      const value = Number(await total.getAttribute("data-value"));
      expect(Number.isFinite(value) && value !== 0).toBe(true);
      const sign = value < 0 ? negative : positive;
      expect(await colour(total)).toBe(sign);
      // The net's sign is the return's (one margin divides it): the same colour as the net total.
      expect(await colour(totals.locator("[data-field='total-net']"))).toBe(sign);
      // A row's red return is the same red.
      expect(await colour(row(page, "GC").locator("[data-field='return']"))).toBe(negative);

      await page.setViewportSize({ width: 390, height: 844 });
      const summary = openPositions(page).locator(".position-card--totals");
      await summary.waitFor();
      expect(await colour(summary.locator("[data-field='total-return']"))).toBe(sign);
      await page.setViewportSize({ width: 1400, height: 900 });
      await totals.waitFor();
    },
    LONG,
  );

  it(
    "sort by a column: aria-sort says which way, the rows follow",
    async () => {
      const { page } = suite;
      const table = openPositions(page).locator("table.positions-table");
      const header = (name: string) => table.locator("thead th", { hasText: name });
      const netOrder = async () => {
        const rows = await table.locator("tbody tr").all();
        return Promise.all(rows.map((r) => figure(r, "net")));
      };
      expect(await header("Net ₹").getAttribute("aria-sort")).toBe("none");
      await header("Net ₹").getByRole("button").click();
      expect(await header("Net ₹").getAttribute("aria-sort")).toBe("descending");
      let order = (await netOrder()) as number[];
      expect(order).toEqual([...order].sort((a, b) => b - a));
      await header("Net ₹").getByRole("button").click();
      expect(await header("Net ₹").getAttribute("aria-sort")).toBe("ascending");
      order = (await netOrder()) as number[];
      expect(order).toEqual([...order].sort((a, b) => a - b));

      await header("Held").getByRole("button").click();
      expect(await header("Net ₹").getAttribute("aria-sort")).toBe("none");
      expect(await header("Held").getAttribute("aria-sort")).toBe("descending");
      const spreads = await table
        .locator("tbody tr")
        .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-spread")));
      // The minute-old GC last; SI and CL (ten days) before it.
      expect(spreads[2]).toBe("GC");

      await header("Position").getByRole("button").click();
      expect(await header("Position").getAttribute("aria-sort")).toBe("ascending");
      const names = await table
        .locator("tbody tr")
        .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-spread")));
      // Crude Oil, Gold, Silver.
      expect(names).toEqual(["CL", "GC", "SI"]);
    },
    LONG,
  );

  it(
    "colour Best and Worst of the closed trades by their sign",
    async () => {
      const { page } = suite;
      const { status } = await rest(page, "POST", `/api/positions/${ids.GC}/close`, {});
      expect(status).toBe(200);
      const summary = closedTrades(page).locator("[data-field='closed-summary']");
      await summary.waitFor(WAIT);
      const { negative } = await signColours(page);
      for (const field of ["summary-worst", "summary-best"]) {
        const item = summary.locator(`[data-field='${field}']`);
        expect(await item.textContent()).toMatch(new RegExp(`^${MINUS}₹[\\d,]+$`));
        expect(await colour(item)).toBe(negative);
      }
    },
    LONG,
  );
});

describe("the Open and Close forms", () => {
  it(
    "clear the lots sentence once the lots read right, and preview margin and costs before Open",
    async () => {
      const { page, app } = suite;
      await page.goto(`${app.url}/positions`);
      await page.getByRole("button", { name: "Open position" }).click();
      const dialog = openDialog(page);
      await dialog.getByLabel("Spread", { exact: true }).selectOption("GC");
      const lots = dialog.getByLabel("Lots", { exact: true });
      await lots.fill("2.5");
      await dialog.getByRole("button", { name: "Open position" }).click();
      const sentence = dialog.getByText("Lots must be a whole number from 1 to 10,000.");
      await sentence.waitFor();
      await lots.fill("0");
      expect(await sentence.count()).toBe(1);

      // The two-lot answer is held at the browser until the form has been read: meanwhile the
      // figures read "…" with no data-value, never the one-lot answer already in (on a loaded
      // machine that answer may take seconds, and a one-lot margin read under "2" halves nothing).
      const preview = dialog.locator("[data-field='open-preview']");
      const margin = preview.locator("[data-field='margin-preview']");
      const costs = preview.locator("[data-field='costs-preview']");
      await expect.poll(() => margin.getAttribute("data-value"), WAIT).toBe("");
      const twoLotAnswer = await holdPreviews(page, 2);
      await lots.fill("2");
      await sentence.waitFor({ state: "detached" });
      await twoLotAnswer.asked;
      expect(await margin.getAttribute("data-value")).toBe("");
      expect(await costs.getAttribute("data-value")).toBe("");
      expect(await preview.textContent()).toBe("Margin … · costs … round trip");
      expect(await preview.getAttribute("data-state")).toBe("updating");
      await twoLotAnswer.release();

      await expect.poll(() => preview.getAttribute("data-state"), WAIT).toBe("current");
      const twoLots = Number(await margin.getAttribute("data-value"));
      expect(twoLots).toBeGreaterThan(0);
      expect(await costs.getAttribute("data-value")).toMatch(/^\d/);
      expect(await preview.textContent()).toMatch(
        /^Margin ₹[\d,]+ \(configured rates\) · costs ₹[\d,]+ round trip$/,
      );
      // One lot blocks half of two: the one-lot answer from when the form opened, or a fresh one.
      await lots.fill("1");
      await expect
        .poll(async () => Number(await margin.getAttribute("data-value")), WAIT)
        .toBeCloseTo(twoLots / 2, 1);
      await lots.fill("2");
      await expect
        .poll(async () => Number(await margin.getAttribute("data-value")), WAIT)
        .toBe(twoLots);
      const previewCosts = Number(await costs.getAttribute("data-value"));

      await dialog.getByRole("button", { name: "Open position" }).click();
      await dialog.getByRole("button", { name: "Done" }).click();
      await dialog.waitFor({ state: "detached" });
      // The position shows what the preview said (the fixture's prices hold still).
      const opened = row(page, "GC");
      await expect.poll(() => figure(opened, "net"), WAIT).not.toBeNull();
      expect(await opened.locator("[data-field='margin']").textContent()).toContain(
        `₹${twoLots.toLocaleString("en-IN", { maximumFractionDigits: 0 })}`,
      );
      const [listed] = (await listedPositions(page)).filter((p) => p.spread === "GC");
      expect(listed?.margin?.inr).toBe(twoLots);
      expect(
        Number(
          await opened.locator("[data-field='costs'] [data-value]").getAttribute("data-value"),
        ),
      ).toBe(previewCosts);
    },
    LONG,
  );

  it(
    "preview the realised ₹ of a close, at the live exit and at a typed one",
    async () => {
      const { page } = suite;
      const opened = row(page, "GC");
      await opened.getByRole("button", { name: "Close" }).click();
      const dialog = closeDialog(page);
      const realised = dialog.locator("[data-field='realised-preview-inr']");
      await realised.waitFor();
      // At the live exit: the row's net for both lots (net is what closing now realises).
      const net = await figure(opened, "net");
      expect(Number(await realised.getAttribute("data-value"))).toBe(net);
      const lots = dialog.getByLabel(/Lots to close/);
      await lots.fill("1");
      expect(Number(await realised.getAttribute("data-value"))).toBeCloseTo((net ?? 0) / 2, 1);
      await lots.fill("3");
      await dialog.getByRole("button", { name: "Close position" }).click();
      const sentence = dialog.getByText("Lots must be a whole number from 1 to 2.");
      await sentence.waitFor();
      expect(await dialog.locator("[data-field='realised-preview-inr']").count()).toBe(0);
      await lots.fill("1");
      await sentence.waitFor({ state: "detached" });
      await dialog.getByLabel("A price I type").check();
      await dialog.getByLabel("Exit value", { exact: true }).fill(`${MINUS}1`);
      await realised.waitFor();
      const typed = Number(await realised.getAttribute("data-value"));
      expect(await dialog.locator("[data-field='realised-preview']").textContent()).toContain(
        `1 lot at ${MINUS}1.00`,
      );
      await dialog.getByRole("button", { name: "Close position" }).click();
      const done = dialog.locator("[data-field='realised']");
      await done.waitFor(WAIT);
      // The server realised what the form said it would.
      expect(Number(await done.getAttribute("data-value"))).toBe(typed);
      await dialog.getByRole("button", { name: "Done" }).click();
      await dialog.waitFor({ state: "detached" });
    },
    LONG,
  );
});
