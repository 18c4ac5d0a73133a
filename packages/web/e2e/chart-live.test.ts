import { beforeAll, describe, expect, it } from "vitest";
import { GC_PARITY_BID } from "./chart-fixtures.ts";
import { chartWith, isCandlesCall } from "./chart-page.ts";
import { ADMIN } from "./harness.ts";
import { type ScriptedApp, startScripted, type Tick } from "./scripted-feed.ts";
import { signedInSuite } from "./suite.ts";

/**
 * GC_BUY's moves, played by the test while the chart is open (scripted-feed.ts): 5.00 at second 1
 * of a minute two hours ago, 8.00 at :55, 2.00 at :57 (the same candle), then 6.00 and 7.00 two
 * and four seconds into the next minute, then 3.00 and 9.00 in the minute after. The quotes carry
 * those times, so the minute rolls over in market time when the test plays it, not a wall-clock
 * minute later.
 */
const MINUTE = 60_000;
const minute = Math.floor((Date.now() - 2 * 60 * MINUTE) / MINUTE) * MINUTE;
const at = (second: number) => minute + second * 1000;
const gold = (second: number, spread: number): Tick => ({
  key: "GOLD",
  ts: at(second),
  bid: +(GC_PARITY_BID + spread - 10).toFixed(6),
  ask: +(GC_PARITY_BID + spread).toFixed(6),
});
const INITIAL: Tick[] = [
  { key: "USDINR", ts: at(1), price: 84 },
  { key: "GC", ts: at(1), bid: 2000, ask: 2000.5 },
  gold(1, 5),
];
const WAIT = { timeout: 90_000, interval: 250 };

let requests = 0;

const suite = signedInSuite<ScriptedApp>({
  app: () => startScripted(["USDINR", "GC", "GOLD"], INITIAL),
  beforeLogin: (page) =>
    page.on("request", (request) => {
      if (isCandlesCall(request, { timeframe: "1m" })) requests++;
    }),
  as: ADMIN,
});

beforeAll(async () => {
  await suite.page.goto(`${suite.app.url}/advanced-chart`);
  await suite.page.getByLabel("Timeframe").selectOption("1m");
});

type Ohlc = [open: number, high: number, low: number, close: number];

/** Every candle the chart holds, rounded to cents. */
function candles(): Promise<Ohlc[]> {
  return suite.page.evaluate(() => {
    const u = window.__spreadChart;
    if (!u) return [];
    const [, close, open, high, low] = u.data;
    const cents = (v: number | null | undefined) => Math.round((v ?? Number.NaN) * 100) / 100;
    return Array.from(
      u.data[0],
      (_, i): Ohlc => [cents(open?.[i]), cents(high?.[i]), cents(low?.[i]), cents(close?.[i])],
    );
  });
}

describe("the forming candle follows the market stream", () => {
  it("updates the last candle between fetches and refetches when the minute rolls over", async () => {
    await chartWith(suite.page, 1);
    expect(await candles()).toEqual([[5, 5, 5, 5]]);
    const fetched = requests;

    // Each move is played once the chart shows the one before, so none is merged away.
    await suite.app.play([[gold(55, 8)]]);
    await expect.poll(candles, WAIT).toEqual([[5, 8, 5, 8]]);
    await suite.app.play([[gold(57, 2)]]);
    await expect.poll(candles, WAIT).toEqual([[5, 8, 2, 2]]);
    // The candle moved with no chart request: the stream did it.
    expect(requests).toBe(fetched);

    await suite.app.play([[gold(62, 6)], [gold(64, 7)]]);
    await expect.poll(candles, WAIT).toEqual([
      [5, 8, 2, 2],
      [6, 7, 6, 7],
    ]);
    // A new minute began, so the chart asked the server for the closed candle.
    expect(requests).toBeGreaterThan(fetched);
  }, 240_000);

  it("keeps a move the stream showed while the refetch at the minute's turn was on its way", async () => {
    // The server answers the refetch at once (the third minute's first sample, 3.00), and the
    // page gets that answer only after the stream has shown the minute's next move (9.00): an
    // answer older than the chart, as a loaded server or network delivers it.
    let answered!: () => void;
    const serverAnswered = new Promise<void>((resolve) => {
      answered = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let held = false;
    await suite.page.route("**/api/trpc/**", async (route) => {
      if (held || !isCandlesCall(route.request(), { timeframe: "1m" })) return route.fallback();
      held = true;
      const response = await route.fetch();
      answered();
      await released;
      await route.fulfill({ response });
    });

    await suite.app.play([[gold(122, 3)]]);
    await serverAnswered;
    await suite.app.play([[gold(124, 9)]]);
    const shown = [
      [5, 8, 2, 2],
      [6, 7, 6, 7],
      [3, 9, 3, 9],
    ];
    await expect.poll(candles, WAIT).toEqual(shown);

    // The held answer lands: the chart takes it (new data) and keeps the move it showed.
    await suite.page.evaluate(() => {
      (window as { __shownData?: unknown }).__shownData = window.__spreadChart?.data;
    });
    release();
    await expect
      .poll(
        () =>
          suite.page.evaluate(
            () => window.__spreadChart?.data !== (window as { __shownData?: unknown }).__shownData,
          ),
        WAIT,
      )
      .toBe(true);
    expect(await candles()).toEqual(shown);
  }, 240_000);
});
