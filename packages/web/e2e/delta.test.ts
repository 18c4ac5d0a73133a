import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { ADMIN, type RestartableApp, startApp } from "./harness.ts";
import { signedInSuite } from "./suite.ts";

// Waits are generous upper bounds for slow machines, not speed assertions (docs/design.md §7).
const WAIT = { timeout: 60_000 };
const STEP_MS = 50;
const STEPS = 300;
const LEAD_IN_MS = 45_000;

/**
 * 15 s of quotes, played at their own pace (REPLAY_SPEED 1) so the page, signed in first, gets
 * them as deltas: every instrument moves, and MCX GOLD's book is crossed every 40th step (the gold
 * spreads vanish, a `null` in the delta) and whole again on the next.
 */
function movingCsv(startMs: number): { csv: string; lastTs: number } {
  const books = [
    ["GC", "GOLD", 2650, 75_900, 0.1, 1],
    ["SI", "SILVER", 31.2, 89_200, 0.01, 1],
    ["HG", "COPPER", 4.15, 769, 0.0005, 0.05],
    ["NG", "NATURALGAS", 3.11, 262, 0.001, 0.1],
    ["CL", "CRUDEOIL", 71.4, 6000, 0.01, 1],
  ] as const;
  const lines: string[] = [];
  for (let step = 0; step < STEPS; step++) {
    const ts = startMs + step * STEP_MS;
    const wave = Math.sin(step / 7);
    for (const [cme, mcx, cmeMid, mcxMid, cmeTick, mcxTick] of books) {
      if ((step + cme.length) % 3 !== 0) continue;
      const c = +(cmeMid + wave * 20 * cmeTick).toFixed(4);
      const m = +(mcxMid + wave * 30 * mcxTick).toFixed(2);
      lines.push(`${ts},cme,${cme},${c},${+(c + cmeTick).toFixed(4)},`);
      const crossed = cme === "GC" && step % 40 === 39;
      lines.push(`${ts},mcx,${mcx},${crossed ? m + 5 : m},${+(m + mcxTick).toFixed(2)},`);
    }
    if (step % 5 === 0) lines.push(`${ts},fx,USDINR,,,${+(83.2 + wave / 10).toFixed(4)}`);
    if (step % 4 === 0) lines.push(`${ts},spot,XAUUSD,,,${+(2640 + wave * 3).toFixed(2)}`);
  }
  // Every step's last line carries that step's time: the newest quote's is the last line's.
  const lastTs = Number(lines.at(-1)?.split(",")[0]);
  const leadIn = `${startMs - LEAD_IN_MS},fx,USDINR,,,83.2`;
  return { csv: ["ts,source,key,bid,ask,price", leadIn, ...lines, ""].join("\n"), lastTs };
}

// The replay plays from the feed's start at the quotes' own pace (feeds/replay/replay.ts): one quote, then
// LEAD_IN_MS of nothing, then the moving quotes, so the app starts and the page signs in first,
// also on a loaded machine (a page that connects late gets the early quotes in its snapshot
// instead: in CI at load ~12 a signed-in page once took over 15 s, and saw no delta at all).
const { csv, lastTs } = movingCsv(Date.now() + LEAD_IN_MS);

/** Records the kind of every stream message the page receives, before any script runs. */
function recordStreamKinds(page: Page) {
  return page.addInitScript(() => {
    const kinds: string[] = [];
    (window as unknown as { streamKinds: string[] }).streamKinds = kinds;
    const Native = window.EventSource;
    window.EventSource = class extends Native {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        this.addEventListener("message", (event) => kinds.push(JSON.parse(event.data).kind));
      }
    };
  });
}
const streamKinds = (page: Page) =>
  page.evaluate(() => (window as unknown as { streamKinds: string[] }).streamKinds);

const suite = signedInSuite<RestartableApp>({
  app: () => startApp({ feed: "replay", replayCsv: csv, replaySpeed: 1 }),
  as: ADMIN,
  beforeLogin: recordStreamKinds,
  waitFor: (page) => page.locator("[data-stream='live']"),
});

/**
 * Every number the raw price table and the spread tables show, row by row — from the stream, so
 * not the z column (statistics come from their own query, refreshed each minute).
 */
function tableNumbers(page: Page): Promise<string[]> {
  return page
    .locator("tr[data-key], tr[data-symbol]")
    .evaluateAll((rows) =>
      rows.map(
        (row) =>
          `${row.getAttribute("data-key") ?? row.getAttribute("data-symbol")}: ${[
            ...row.querySelectorAll("[data-col]:not([data-col='alerts']):not([data-col='z'])"),
          ]
            .map((cell) => cell.textContent)
            .join(" | ")}`,
      ),
    );
}

/** The replay has played its last quote: the server's state no longer moves. */
async function replayDone(url: string) {
  await expect
    .poll(async () => (await (await fetch(`${url}/api/prices`)).json()).timestamp, WAIT)
    .toBe(lastTs);
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
    await replayDone(suite.app.url);
    // One snapshot on connect, then deltas only: the table read next was built from deltas.
    const kinds = await streamKinds(suite.page);
    expect(kinds[0]).toBe("snapshot");
    expect(kinds.slice(1).every((kind) => kind === "delta")).toBe(true);
    // Hundreds of quotes; a loaded machine coalesces some (docs/design.md §3), never most.
    expect(kinds.length).toBeGreaterThan(20);
    const fromDeltas = await tableNumbers(suite.page);
    expect(fromDeltas.join("\n")).toMatch(/GC_BUY: [+-]\d/);
    expect(await numbersAfterReload(suite.page)).toEqual(fromDeltas);
  }, 120_000);

  it("reconnects after a server restart and follows the new server's numbers", async () => {
    const before = await tableNumbers(suite.page);
    await suite.app.halt();
    await suite.app.restart();
    // The replay starts over: the page must move away from where it stood, then settle on
    // exactly what the restarted server holds.
    await expect.poll(() => tableNumbers(suite.page), WAIT).not.toEqual(before);
    await replayDone(suite.app.url);
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
