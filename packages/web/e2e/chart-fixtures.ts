/**
 * A replay for the chart tests: six minutes of GC_BUY with known candles. The spread, worked by
 * hand (docs/design.md §2; USDINR 84; GC duty 6 %; GC factor 10 / 31.1034768):
 *
 *   parity(bid 2000) = 2000 × 10 / 31.1034768 × 84 × 1.06 = 57254.0494894127
 *   GC_BUY           = GOLD ask − 57254.0494894127
 *
 * so a GOLD ask of 57254.0494894127 + s (written to 6 decimals) gives GC_BUY = s. Each minute
 * has four samples, at :00, :15, :30 and :45 — open, high, low, close in the order listed
 * in MINUTES — and the minutes sit inside one IST hour: one 1h candle, two 5m candles (the
 * first five minutes, then the sixth). Silver quotes once (SI_SELL has one flat candle); no
 * index or spot prices, so NIFTY has no data.
 */
export const GC_PARITY_BID = 57254.0494894127;

/** [open, high, low, close] of GC_BUY per minute; the samples come in this order. */
export const MINUTES: readonly (readonly [number, number, number, number])[] = [
  [10.0, 25.0, -5.0, 12.5],
  [12.5, 30.25, 8.75, 20.0],
  [20.0, 22.4, -15.6, -12.3],
  [-12.3, 5.1, -20.9, 3.3],
  [3.3, 40.8, 1.2, 35.6],
  [35.6, 38.0, 30.0, 31.7],
];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const IST_OFFSET = 330 * MINUTE;

/**
 * The first minute of the fixture: ten minutes into the IST hour that began three hours
 * before `now`, so the six minutes and both 5m buckets (:10–:14, :15) stay in one hour.
 */
export function fixtureStart(now = Date.now()): number {
  const hourStart = Math.floor((now - 3 * HOUR + IST_OFFSET) / HOUR) * HOUR - IST_OFFSET;
  return hourStart + 10 * MINUTE;
}

export interface ExpectedCandle {
  timestamp: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

/** The 1-minute candles the replay records for GC_BUY. */
export function expectedMinuteCandles(start: number): ExpectedCandle[] {
  return MINUTES.map(([open, high, low, close], i) => ({
    timestamp: start + i * MINUTE,
    open,
    high,
    low,
    close,
  }));
}

/** The 5-minute candles: minutes 0–4 aggregated, then minute 5 alone. */
export function expectedFiveMinuteCandles(start: number): ExpectedCandle[] {
  const minutes = expectedMinuteCandles(start);
  const merge = (group: ExpectedCandle[]): ExpectedCandle => ({
    timestamp: (group[0] as ExpectedCandle).timestamp,
    open: (group[0] as ExpectedCandle).open,
    high: Math.max(...group.map((c) => c.high)),
    low: Math.min(...group.map((c) => c.low)),
    close: (group.at(-1) as ExpectedCandle).close,
  });
  return [merge(minutes.slice(0, 5)), merge(minutes.slice(5))];
}

/** The replay of `minutes` (MINUTES unless told) of GC_BUY from `start`. */
export function chartFixtureCsv(
  start: number,
  minutes: readonly (readonly number[])[] = MINUTES,
): string {
  const rows: string[] = [
    `${start},fx,USDINR,,,84`,
    `${start},cme,GC,2000,2000.5,`,
    `${start},cme,SI,24,24.02,`,
    `${start},mcx,SILVER,77200,77260,`,
  ];
  minutes.forEach((samples, minute) => {
    samples.forEach((spread, i) => {
      const ask = (GC_PARITY_BID + spread).toFixed(6);
      const bid = (GC_PARITY_BID + spread - 10).toFixed(6);
      rows.push(`${start + minute * MINUTE + i * 15_000},mcx,GOLD,${bid},${ask},`);
    });
  });
  return ["ts,source,key,bid,ask,price", ...rows, ""].join("\n");
}

/** How many 1-minute candles the long replay records: more than one 1,500-candle page. */
export const LONG_MINUTES = 1700;
/** The long replay's last close (positive, so the live value tag is green). */
export const LONG_LAST_CLOSE = 12.34;

/** The long replay's first minute: its last minute ends two hours before `now`. */
export function longStart(now = Date.now()): number {
  return Math.floor((now - 2 * HOUR) / MINUTE) * MINUTE - (LONG_MINUTES - 1) * MINUTE;
}

/** GC_BUY in minute i of the long replay: a slow swing between −30 and +30, two decimals. */
export function longValue(i: number): number {
  return i === LONG_MINUTES - 1 ? LONG_LAST_CLOSE : Math.round(3000 * Math.sin(i / 40)) / 100;
}

/** One GC_BUY sample per minute for LONG_MINUTES minutes, so one flat candle each. */
export function longHistoryCsv(start: number): string {
  const rows: string[] = [`${start},fx,USDINR,,,84`, `${start},cme,GC,2000,2000.5,`];
  for (let i = 0; i < LONG_MINUTES; i++) {
    const spread = longValue(i);
    const ask = (GC_PARITY_BID + spread).toFixed(6);
    const bid = (GC_PARITY_BID + spread - 10).toFixed(6);
    rows.push(`${start + i * MINUTE},mcx,GOLD,${bid},${ask},`);
  }
  return ["ts,source,key,bid,ask,price", ...rows, ""].join("\n");
}
