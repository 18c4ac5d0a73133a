import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { ADMIN } from "./harness.ts";
import { type ScriptedApp, startScripted, type Tick } from "./scripted-feed.ts";
import { signedInSuite } from "./suite.ts";

// Waits are generous upper bounds for slow machines, not speed assertions (docs/design.md §7).
const WAIT = { timeout: 60_000 };
const STEP_MS = 50;
const STEPS = 300;
const KEYS = ["GC", "SI", "HG", "NG", "CL", "GOLD", "SILVER", "COPPER", "NATURALGAS", "CRUDEOIL"];

/**
 * 300 moments of quotes 50 ms apart (15 s of market time), which the server takes one per poll
 * once the test plays them: every instrument moves, and MCX GOLD's book is crossed every 40th
 * step (the gold spreads vanish, a `null` in the delta) and whole again on the next.
 */
function movingMoments(startMs: number): { moments: Tick[][]; lastTs: number } {
  const books = [
    ["GC", "GOLD", 2650, 75_900, 0.1, 1],
    ["SI", "SILVER", 31.2, 89_200, 0.01, 1],
    ["HG", "COPPER", 4.15, 769, 0.0005, 0.05],
    ["NG", "NATURALGAS", 3.11, 262, 0.001, 0.1],
    ["CL", "CRUDEOIL", 71.4, 6000, 0.01, 1],
  ] as const;
  const moments: Tick[][] = [];
  for (let step = 0; step < STEPS; step++) {
    const ts = startMs + step * STEP_MS;
    const wave = Math.sin(step / 7);
    const ticks: Tick[] = [];
    for (const [cme, mcx, cmeMid, mcxMid, cmeTick, mcxTick] of books) {
      if ((step + cme.length) % 3 !== 0) continue;
      const c = +(cmeMid + wave * 20 * cmeTick).toFixed(4);
      const m = +(mcxMid + wave * 30 * mcxTick).toFixed(2);
      ticks.push({ key: cme, ts, bid: c, ask: +(c + cmeTick).toFixed(4) });
      const crossed = cme === "GC" && step % 40 === 39;
      ticks.push({ key: mcx, ts, bid: crossed ? m + 5 : m, ask: +(m + mcxTick).toFixed(2) });
    }
    if (step % 5 === 0) ticks.push({ key: "USDINR", ts, price: +(83.2 + wave / 10).toFixed(4) });
    if (step % 4 === 0) ticks.push({ key: "XAUUSD", ts, price: +(2640 + wave * 3).toFixed(2) });
    moments.push(ticks);
  }
  // Every step's quotes carry that step's time: the newest quote's is the last quoting step's.
  const lastTs = moments.findLast((ticks) => ticks.length > 0)?.[0]?.ts ?? startMs;
  return { moments, lastTs };
}

// The page signs in on a server that holds one quote; the moving quotes flow only when a test
// plays them (scripted-feed.ts), so a page that is slow to sign in on a loaded machine still gets
// them as deltas, and no test waits out a lead-in.
const START_MS = Date.now();
const { moments, lastTs } = movingMoments(START_MS);
const INITIAL: Tick[] = [{ key: "USDINR", ts: START_MS - 1000, price: 83.2 }];

/**
 * Records the kind of every stream message the page receives, before any script runs, and when
 * the GC_BUY spread cell's text changed (a MutationObserver delivers one callback per task, so
 * one entry per render that changed it).
 */
function recordStreamKinds(page: Page) {
  return page.addInitScript(() => {
    const kinds: string[] = [];
    const cellRenders: number[] = [];
    Object.assign(window, { streamKinds: kinds, cellRenders });
    const Native = window.EventSource;
    window.EventSource = class extends Native {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        this.addEventListener("message", (event) => kinds.push(JSON.parse(event.data).kind));
      }
    };
    const inCell = (node: Node) =>
      (node instanceof Element ? node : node.parentElement)?.closest(
        "tr[data-symbol='GC_BUY'] [data-col='spread']",
      ) != null;
    new MutationObserver((records) => {
      if (records.some((record) => inCell(record.target))) cellRenders.push(performance.now());
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}
const cellRenders = (page: Page) =>
  page.evaluate(() => (window as unknown as { cellRenders: number[] }).cellRenders);
const streamKinds = (page: Page) =>
  page.evaluate(() => (window as unknown as { streamKinds: string[] }).streamKinds);
const snapshotCount = (kinds: string[]) => kinds.filter((kind) => kind === "snapshot").length;

const suite = signedInSuite<ScriptedApp>({
  app: () => startScripted([...KEYS, "USDINR", "XAUUSD"], INITIAL),
  as: ADMIN,
  beforeLogin: recordStreamKinds,
  waitFor: (page) => page.locator("[data-stream='live']"),
});

/**
 * Every number the raw price table and the spread tables show, row by row — from the stream, so
 * not the z column (statistics come from their own query, refreshed each minute), nor a price's
 * "stale" badge: that is the browser's clock against the quote's time (10 s), and a reload on a
 * machine under load can take longer than that after the last quote.
 */
function tableNumbers(page: Page): Promise<string[]> {
  return page.locator("tr[data-key], tr[data-symbol]").evaluateAll((rows) =>
    rows.map(
      (row) =>
        `${row.getAttribute("data-key") ?? row.getAttribute("data-symbol")}: ${[
          ...row.querySelectorAll("[data-col]:not([data-col='alerts']):not([data-col='z'])"),
        ]
          .map((cell) =>
            [...cell.childNodes]
              .filter(
                (node) =>
                  !(node instanceof HTMLElement && node.matches(".stale-badge:not([data-tag])")),
              )
              .map((node) => node.textContent)
              .join(""),
          )
          .join(" | ")}`,
    ),
  );
}

/** Plays every moment and waits until the server holds the last: its state no longer moves. */
async function playAll(app: ScriptedApp) {
  await app.play(moments);
  const url = app.url;
  await expect
    .poll(async () => (await (await fetch(`${url}/api/prices`)).json()).timestamp, WAIT)
    .toBe(lastTs);
}

/**
 * Waits until the dashboard has drawn the last moment: the stream's last message may still be on
 * its way when the server holds it, and the table takes the newest state within 250 ms after
 * (MARKET_CACHE_EVERY_MS), so the table is read only once it shows the last quote's time.
 */
function shownLast(page: Page) {
  return page.locator(`[data-market-at='${lastTs}']`).waitFor(WAIT);
}

/**
 * What the page shows once reloaded: its stream then opens with the server's current snapshot
 * (the state of /api/prices and /api/calculations), with no delta applied yet. A second page
 * would need a second sign-in, which ends the first page's session.
 */
async function numbersAfterReload(page: Page): Promise<string[]> {
  await page.reload();
  await page.locator("[data-stream='live']").waitFor(WAIT);
  await page.locator("tr[data-symbol='GC_BUY'] [data-col='spread']").waitFor(WAIT);
  return tableNumbers(page);
}

describe("the dashboard fed by deltas", () => {
  it("shows the same numbers as a fresh page (the server's snapshot) after many quotes", async () => {
    await playAll(suite.app);
    await shownLast(suite.page);
    // One snapshot on connect, then deltas only: the table read next was built from deltas.
    const kinds = await streamKinds(suite.page);
    expect(kinds[0]).toBe("snapshot");
    expect(kinds.slice(1).every((kind) => kind === "delta")).toBe(true);
    // Hundreds of quotes; a loaded machine coalesces some (docs/design.md §3), never most.
    expect(kinds.length).toBeGreaterThan(20);
    const fromDeltas = await tableNumbers(suite.page);
    expect(fromDeltas.join("\n")).toMatch(/GC_BUY: [+-]\d/);
    // The dashboard renders the market at most every 250 ms (MARKET_CACHE_EVERY_MS), however
    // fast the stream: GC_BUY's inputs move every ~100 ms here. Renders delayed by a busy page
    // (up to a second allowed) can bunch up, hence the slack; never one render per message.
    const renders = await cellRenders(suite.page);
    const span = (renders.at(-1) ?? 0) - (renders[0] ?? 0);
    expect(renders.length).toBeGreaterThan(1);
    expect(renders.length).toBeLessThanOrEqual(1 + (span + 1000) / 250);
    // And the burst's last numbers were not held back: the same as the server's snapshot.
    expect(await numbersAfterReload(suite.page)).toEqual(fromDeltas);
  }, 120_000);

  it("reconnects after a server restart and follows the new server's numbers", async () => {
    const before = await tableNumbers(suite.page);
    const snapshotsBefore = snapshotCount(await streamKinds(suite.page));
    await suite.app.halt();
    // The quotes start over, as a replay does on a restart: the page must move away from where
    // it stood, then settle on exactly what the restarted server holds. They flow once the page
    // has reconnected (its next snapshot), so it gets them as deltas.
    suite.app.rewind();
    await suite.app.restart();
    await expect
      .poll(async () => snapshotCount(await streamKinds(suite.page)), WAIT)
      .toBeGreaterThan(snapshotsBefore);
    const played = playAll(suite.app);
    await expect.poll(() => tableNumbers(suite.page), WAIT).not.toEqual(before);
    await played;
    await shownLast(suite.page);
    // A snapshot on the first connect and one on the reconnect, then deltas again. (A loaded
    // machine may hold the page back past the server's ring of versions, which is answered with
    // one more snapshot: a resync, not a failure, so at least two.)
    const kinds = await streamKinds(suite.page);
    const snapshots = kinds.flatMap((kind, at) => (kind === "snapshot" ? [at] : []));
    expect(snapshots.length).toBeGreaterThanOrEqual(2);
    expect(kinds.slice((snapshots[1] as number) + 1)).toContain("delta");
    const fromDeltas = await tableNumbers(suite.page);
    expect(await numbersAfterReload(suite.page)).toEqual(fromDeltas);
  }, 120_000);
});
