import { BUILT_IN_KEYS, SHIPPED_INSTRUMENTS } from "@spreadwatch/core";
import { describe, expect, it } from "vitest";
import { rest } from "./alerts.ts";
import { A_DAY_OF_HISTORY, ADMIN, startApp } from "./harness.ts";
import { recordStreamInputs } from "./requests.ts";
import { signedInSuite } from "./suite.ts";

// The dashboard's stream leaves out the instruments whose Prices rows are off screen
// (docs/decisions.md "What the dashboard's stream carries"); a row scrolled to is streamed again.

const BUILT_IN = new Set<string>(BUILT_IN_KEYS);
/** Shipped instruments beside the fifteen: enough rows to run below a 700 px window. */
const EXTRA = SHIPPED_INSTRUMENTS.filter((spec) => !BUILT_IN.has(spec.key))
  .slice(0, 14)
  .map((spec) => spec.key);
const LOADED = { timeout: 60_000 };
/**
 * A safety net for the whole test, not a measure: its steps each wait up to LOADED, and under a
 * CPU hog (two busy loops on two cores) the fourteen additions, their rows and a row going stale
 * once ran past the project's 60 s while every step held.
 */
const TEST_TIMEOUT_MS = 240_000;

/** The `input` of each market.onSnapshot request the page made, in order. */
const streams: Array<{ exceptKeys?: string[] } | undefined> = [];

const suite = signedInSuite({
  app: () => startApp({ feed: "simulator", env: A_DAY_OF_HISTORY }),
  page: { width: 1280, height: 700 },
  beforeLogin: (page) => recordStreamInputs(page, streams),
  as: ADMIN,
  waitFor: (page) => page.locator("tr[data-key='mcx:GOLD'] [data-col='bid']"),
});

const priceRow = (key: string) =>
  suite.page.getByRole("table", { name: "Prices" }).locator(`tr[data-stream-key='${key}']`);
const leftOut = () => streams.at(-1)?.exceptKeys ?? [];

describe("the dashboard's stream", () => {
  it("leaves out rows off screen, streams a row again once scrolled to, and keeps the page live", {
    timeout: TEST_TIMEOUT_MS,
  }, async () => {
    const { page, app } = suite;
    for (const key of EXTRA) {
      const added = await rest(page, "POST", "/api/instruments", { key });
      expect(added.status, JSON.stringify(added.json)).toBe(201);
    }
    await page.goto(`${app.url}/`);
    // A row shows once its instrument quotes: on a loaded machine the new ones take a moment.
    const rowKeys = () =>
      page
        .getByRole("table", { name: "Prices" })
        .locator("tr[data-stream-key]")
        .evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.streamKey as string));
    await expect.poll(rowKeys, LOADED).toEqual(expect.arrayContaining(EXTRA));
    const keys = await rowKeys();
    // The lowest extra row is below the window: the stream is asked to leave it out, and never
    // to leave out a built-in instrument (the spread tables and the watchers read those).
    const lowest = keys.filter((key) => !BUILT_IN.has(key)).at(-1) as string;
    await expect.poll(leftOut, LOADED).toContain(lowest);
    expect(leftOut().filter((key) => BUILT_IN.has(key))).toEqual([]);
    // Nothing of it arrives any more: its row goes stale (no quote for over 10 s) and stays in
    // its place with its last price.
    await expect.poll(() => priceRow(lowest).getAttribute("data-stale"), LOADED).toBe("true");
    expect(
      await priceRow(lowest).locator("[data-col='bid'], [data-col='price']").first().textContent(),
    ).toMatch(/\d/);
    await expect.poll(() => page.locator("[data-stream]").getAttribute("data-stream")).toBe("live");

    // Scrolled to, it is asked for again (a new connection) and quotes live; the page says
    // "Live" throughout, never "Connecting…".
    await page.evaluate(() => {
      const states: string[] = [];
      (window as unknown as { streamStates: string[] }).streamStates = states;
      new MutationObserver(() => {
        const shown = document.querySelector("[data-stream]")?.getAttribute("data-stream");
        if (shown && shown !== states.at(-1)) states.push(shown);
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await priceRow(lowest).scrollIntoViewIfNeeded();
    await expect.poll(leftOut, LOADED).not.toContain(lowest);
    await expect.poll(() => priceRow(lowest).getAttribute("data-stale"), LOADED).toBe("false");
    expect(await page.locator("[data-stream]").getAttribute("data-stream")).toBe("live");
    const states = await page.evaluate(
      () => (window as unknown as { streamStates: string[] }).streamStates,
    );
    expect(states.filter((state) => state !== "live")).toEqual([]);
  });

  it("still shows an instrument added while the page is open", async () => {
    const { page } = suite;
    const added = SHIPPED_INSTRUMENTS.find(
      (spec) => !BUILT_IN.has(spec.key) && !EXTRA.includes(spec.key),
    )?.key as string;
    expect((await rest(page, "POST", "/api/instruments", { key: added })).status).toBe(201);
    await expect.poll(() => priceRow(added).count(), LOADED).toBe(1);
    await expect
      .poll(
        () => priceRow(added).locator("[data-col='bid'], [data-col='price']").first().textContent(),
        LOADED,
      )
      .toMatch(/\d/);
  });
});
