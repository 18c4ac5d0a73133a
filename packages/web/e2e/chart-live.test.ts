import { beforeAll, describe, expect, it } from "vitest";
import { GC_PARITY_BID } from "./chart-fixtures.ts";
import { chartWith, isCandlesCall } from "./chart-page.ts";
import { ADMIN, startApp } from "./harness.ts";
import { signedInSuite } from "./suite.ts";

/**
 * A replay at real speed (REPLAY_SPEED 1) whose GC_BUY moves while the chart is open:
 * 5.00 at second 1 of a minute, 8.00 at :55, 2.00 at :57 (the same candle), then 6.00 and
 * 7.00 two and four seconds into the next minute. The replay plays from the server's start, so
 * the page has 54 s from then to open the chart on the first value (20 s was too few for a
 * loaded run: the candle had moved before the chart opened).
 */
const MINUTE = 60_000;
const minute = Math.floor((Date.now() - 2 * 60 * MINUTE) / MINUTE) * MINUTE;
const at = (second: number) => minute + second * 1000;
const gold = (second: number, spread: number) => {
  const ask = (GC_PARITY_BID + spread).toFixed(6);
  const bid = (GC_PARITY_BID + spread - 10).toFixed(6);
  return `${at(second)},mcx,GOLD,${bid},${ask},`;
};
const CSV = [
  "ts,source,key,bid,ask,price",
  `${at(1)},fx,USDINR,,,84`,
  `${at(1)},cme,GC,2000,2000.5,`,
  gold(1, 5),
  gold(55, 8),
  gold(57, 2),
  gold(62, 6),
  gold(64, 7),
  "",
].join("\n");

let requests = 0;

const suite = signedInSuite({
  app: () => startApp({ feed: "replay", replayCsv: CSV, replaySpeed: 1 }),
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

    await expect.poll(candles, { timeout: 90_000, interval: 250 }).toEqual([[5, 8, 2, 2]]);
    // The candle moved with no chart request: the stream did it.
    expect(requests).toBe(fetched);

    await expect.poll(candles, { timeout: 90_000, interval: 250 }).toEqual([
      [5, 8, 2, 2],
      [6, 7, 6, 7],
    ]);
    // A new minute began, so the chart asked the server for the closed candle.
    expect(requests).toBeGreaterThan(fetched);
    // It waits for the replay's moves, up to a minute after the server started.
  }, 240_000);
});
