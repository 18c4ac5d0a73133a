// Backtests over HTTP (docs/backtest.md): the contract that a spread rule's trades are exactly
// the rule applied to /api/chart-data's one-minute BUY and SELL closes, the tRPC mirror, the
// sweep, and every refusal (400 naming the field, 404, 429) changing nothing.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { candlesToCsv, perLot, type Quote, sweepBacktest } from "@spreadwatch/core";
import type { CloseQuery } from "@spreadwatch/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addTrader, signIn } from "./fakes/signed-in-trader.ts";
import { eventually } from "./fakes/wait.ts";
import type { HttpClient } from "./http-client.ts";
import { ADMIN, manualFeed, startTestServer, type TestServer } from "./server.ts";

let server: TestServer;
let feed: ReturnType<typeof manualFeed>;
let trader: HttpClient;
let other: HttpClient;

// biome-ignore lint/suspicious/noExplicitAny: the tests read raw JSON
type Json = any;

/** 2026-11-20 09:30 IST; 120 minutes follow, the SELL side a slow wave between 200 and 700. */
const T0 = Date.UTC(2026, 10, 20, 4, 0);
const MINUTES = 120;
const sellAt = (i: number) => Math.round((450 + 250 * Math.sin(i / 6)) * 100) / 100;
/** Minute 17 has only a BUY candle: a minute without both sides is no decision. */
const BUY_ONLY = 17;

beforeAll(async () => {
  feed = manualFeed();
  server = await startTestServer({ feed });
  const admin = await signIn(server, ADMIN.username, ADMIN.password);
  trader = await addTrader(server, admin, "trader");
  other = await addTrader(server, admin, "other");
  const candles = [];
  for (let i = 0; i < MINUTES; i++) {
    const timestamp = T0 + i * 60_000;
    const sell = sellAt(i);
    const buy = sell + 3;
    const ohlc = (close: number) => ({ open: close, high: close + 1, low: close - 1, close });
    candles.push({ symbol: "GC_BUY", timeframe: "1m", timestamp, ...ohlc(buy) });
    if (i !== BUY_ONLY)
      candles.push({ symbol: "GC_SELL", timeframe: "1m", timestamp, ...ohlc(sell) });
  }
  await server.services.store.candles.save(candles);
  const ts = Date.now();
  const quotes: Quote[] = [
    { source: "fx", key: "USDINR", price: 84, ts },
    { source: "cme", key: "GC", bid: 2650, ask: 2651, ts },
    { source: "mcx", key: "GOLD", bid: 76_000, ask: 76_010, ts },
  ];
  for (const quote of quotes) feed.push(quote);
  await eventually(
    async () => (await fetch(`${server.url}/api/calculations`)).json() as Promise<Json>,
    (b) => b.GC_BUY !== undefined && b.GC_SELL !== undefined,
    "GC in /api/calculations",
  );
});
afterAll(() => server.stop());

const RANGE = { symbol: "GC", from: T0, to: T0 + MINUTES * 60_000 };

/** The rule of docs/backtest.md written out plainly over the chart's closes. */
function byHand(
  buy: Map<number, number>,
  sell: Map<number, number>,
  rule: { sellAbove: number; exitShortAt: number; buyBelow: number; exitLongAt: number },
) {
  const trades: { side: string; entryAt: number; entry: number; exitAt: number; exit: number }[] =
    [];
  let open: { side: "long" | "short"; entryAt: number; entry: number } | undefined;
  let last: number | undefined;
  for (const t of [...buy.keys()].sort((a, b) => a - b)) {
    const b = buy.get(t) as number;
    const s = sell.get(t);
    if (s === undefined) continue;
    last = t;
    if (open?.side === "short" && b <= rule.exitShortAt) {
      trades.push({ ...open, exitAt: t, exit: b });
      open = undefined;
    } else if (open?.side === "long" && s >= rule.exitLongAt) {
      trades.push({ ...open, exitAt: t, exit: s });
      open = undefined;
    } else if (!open && s >= rule.sellAbove) open = { side: "short", entryAt: t, entry: s };
    else if (!open && b <= rule.buyBelow) open = { side: "long", entryAt: t, entry: b };
  }
  if (open && last !== undefined) {
    const exit = (open.side === "short" ? buy : sell).get(last) as number;
    trades.push({ ...open, exitAt: last, exit });
  }
  return trades;
}

async function closes(symbol: string): Promise<Map<number, number>> {
  const res = await trader.get(
    `/api/chart-data/${symbol}?timeframe=1m&from=${RANGE.from}&to=${RANGE.to}`,
  );
  expect(res.status).toBe(200);
  return new Map(res.body.data.map((c: Json) => [c.timestamp, c.close]));
}

describe("POST /api/backtests", () => {
  const rule = { sellAbove: 600, exitShortAt: 300, buyBelow: 250, exitLongAt: 500 };

  it("trades exactly as the rule applied to the chart's BUY and SELL one-minute closes", async () => {
    const res = await trader.post("/api/backtests", {
      ...RANGE,
      metric: "spread",
      ...rule,
      lots: 2,
    });
    expect(res.status).toBe(200);
    const expected = byHand(await closes("GC_BUY"), await closes("GC_SELL"), rule);
    expect(expected.length).toBeGreaterThanOrEqual(3);
    expect(
      res.body.trades.map((t: Json) => ({
        side: t.side,
        entryAt: t.entryAt,
        entry: t.entry,
        exitAt: t.exitAt,
        exit: t.exit,
      })),
    ).toEqual(expected);
    // Costs: a GOLD lot and its hedge at today's BUY side (MCX ask 76,010), per lot, × 2 lots.
    const costs =
      Math.round((perLot("GC_BUY", { spread: 0, mcx: 76_010 }, 84)?.costsInr as number) * 200) /
      100;
    for (const t of res.body.trades) {
      const move = t.side === "short" ? t.entry - t.exit : t.exit - t.entry;
      expect(t.grossInr).toBeCloseTo(move * 100 * 2, 2);
      expect(t.costsInr).toBe(costs);
      expect(t.netInr).toBeCloseTo(t.grossInr - costs, 2);
    }
    expect(res.body.summary.trades).toBe(expected.length);
    expect(res.body.summary.estimatedFills).toBe(0);
    expect(res.body.summary.returnOnMargin).toBeCloseTo(
      res.body.summary.netInr / (2 * (760_100 + 415_800)),
      9,
    );
    expect(res.body.equity[0]).toEqual([T0, 0]);
    expect(res.body.equity.at(-1)[1]).toBe(res.body.summary.netInr);

    // tRPC's backtests.run answers the same.
    const trpc = await trader.post("/api/trpc/backtests.run", {
      ...RANGE,
      metric: "spread",
      ...rule,
      lots: 2,
    });
    expect(trpc.body.result.data).toEqual(res.body);
  });

  it("prints the same summary from examples/backtest-spread.ts over the chart's CSV downloads", async () => {
    const rule = { sellAbove: 600, exitShortAt: 300, buyBelow: 250, exitLongAt: 500 };
    const api = await trader.post("/api/backtests", {
      ...RANGE,
      metric: "spread",
      ...rule,
      lots: 3,
    });
    expect(api.status).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), "backtest-script-"));
    try {
      for (const symbol of ["GC_BUY", "GC_SELL"]) {
        const res = await trader.get(
          `/api/chart-data/${symbol}?timeframe=1m&from=${RANGE.from}&to=${RANGE.to}`,
        );
        writeFileSync(join(dir, `${symbol}-1m.csv`), candlesToCsv(symbol, "1m", res.body.data));
      }
      const costs = perLot("GC_BUY", { spread: 0, mcx: 76_010 }, 84)?.costsInr as number;
      const script = fileURLToPath(
        new URL("../../core/examples/backtest-spread.ts", import.meta.url),
      );
      const tsx = fileURLToPath(new URL("../../../node_modules/.bin/tsx", import.meta.url));
      const args = [script, join(dir, "GC_BUY-1m.csv"), "--sell", join(dir, "GC_SELL-1m.csv")];
      args.push("--units", "100", "--costs", String(costs), "--margin", String(760_100 + 415_800));
      args.push("--metric", "spread", "--sell-above", "600", "--exit-short", "300");
      args.push("--buy-below", "250", "--exit-long", "500", "--lots", "3");
      const printed = await new Promise<string>((resolve, reject) => {
        const child = spawn(tsx, args, { stdio: ["ignore", "pipe", "pipe"] });
        let out = "";
        let err = "";
        child.stdout.on("data", (chunk) => {
          out += chunk;
        });
        child.stderr.on("data", (chunk) => {
          err += chunk;
        });
        child.on("error", reject);
        child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(err))));
      });
      expect(JSON.parse(printed)).toEqual(api.body.summary);
      expect(api.body.summary.trades).toBeGreaterThanOrEqual(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses bad input with a 400 naming the field", async () => {
    const base = { ...RANGE, metric: "z", sellAbove: 2, exitShortAt: 0, lots: 1 };
    const cases: [Json, string][] = [
      [{ ...base, lot: 1 }, "lot"],
      [{ ...base, sellAbove: undefined }, "sellAbove or buyBelow is required"],
      [{ ...base, buyBelow: 3 }, "buyBelow must be below sellAbove"],
      [{ ...base, exitShortAt: 2.5 }, "exitShortAt must be below sellAbove"],
      [{ ...base, buyBelow: -2, exitLongAt: -3 }, "exitLongAt must be above buyBelow"],
      [{ ...base, to: base.from }, "from must be before to"],
      [{ ...base, to: base.from + 367 * 86_400_000 }, "at most 366 days"],
      [{ ...base, metric: "price" }, "metric must be one of spread, z, percentile"],
      [{ ...base, lots: 0 }, "lots must be a whole number"],
      [{ ...base, from: "yesterday" }, "from must be epoch milliseconds"],
      [{ ...base, symbol: undefined }, "symbol"],
    ];
    for (const [body, text] of cases) {
      const res = await trader.post("/api/backtests", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toContain(text);
    }
    const sweep = {
      ...base,
      sweep: {
        x: { field: "sellAbove", from: 1, to: 3, step: 0.1 },
        y: { field: "exitShortAt", from: -1, to: 1, step: 0.1 },
      },
    };
    const tooMany = await trader.post("/api/backtests/sweep", sweep);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toBe("sweep: 441 cells; a sweep has at most 400");
    const huge = await trader.post("/api/backtests/sweep", {
      ...sweep,
      sweep: { ...sweep.sweep, x: { field: "sellAbove", from: 0, to: 1e12, step: 1e-9 } },
    });
    expect(huge.status).toBe(400);
    const sameField = await trader.post("/api/backtests/sweep", {
      ...sweep,
      sweep: { ...sweep.sweep, y: { ...sweep.sweep.x } },
    });
    expect(sameField.body.error).toContain("sweep.y.field");
  });

  it("answers 404 for a spread the user cannot see", async () => {
    const created = await other.post("/api/spreads", {
      name: "Gold near/next",
      legs: [
        { name: "a", instrument: "GOLD", lots: 1 },
        { name: "b", instrument: "GOLD@next", lots: 1 },
      ],
      formula: "a - b",
    });
    expect(created.status).toBe(201);
    const body = { ...RANGE, metric: "spread", sellAbove: 600, lots: 1 };
    for (const symbol of [created.body.symbol, "SP99999", "ZZ"]) {
      const res = await trader.post("/api/backtests", { ...body, symbol });
      expect(res.status, symbol).toBe(404);
      expect(res.body.error).toContain("not found");
    }
  });

  it("runs at most two per user at once; a third is refused with 429", async () => {
    const candles = server.services.store.candles;
    const closes = candles.closes;
    const held: (() => void)[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    candles.closes = async (query: CloseQuery) => {
      held.push(() => {});
      await gate;
      return closes.call(candles, query);
    };
    try {
      const body = { ...RANGE, metric: "spread", sellAbove: 600, lots: 1 };
      const first = trader.post("/api/backtests", body);
      const second = trader.post("/api/backtests", body);
      // Both are reading (each reads the BUY and the SELL side).
      await expect.poll(() => held.length, { timeout: 30_000 }).toBe(4);
      const third = await trader.post("/api/backtests", body);
      expect(third.status).toBe(429);
      expect(third.body.error).toContain("At most 2 backtests");
      // Another user is not held back by this one's.
      const elsewhere = other.post("/api/backtests", body);
      await expect.poll(() => held.length, { timeout: 30_000 }).toBe(6);
      release();
      expect((await first).status).toBe(200);
      expect((await second).status).toBe(200);
      expect((await elsewhere).status).toBe(200);
    } finally {
      candles.closes = closes;
      release();
    }
    // Both slots are free again.
    const after = await trader.post("/api/backtests", {
      ...RANGE,
      metric: "spread",
      sellAbove: 600,
    });
    expect(after.status).toBe(200);
  });
});

describe("POST /api/backtests/sweep", () => {
  it("gives every valid cell's summary in sample (first 70 %) and out of sample", async () => {
    const res = await trader.post("/api/backtests/sweep", {
      ...RANGE,
      metric: "spread",
      lots: 1,
      sweep: {
        x: { field: "sellAbove", from: 500, to: 600, step: 50 },
        y: { field: "exitShortAt", from: 300, to: 550, step: 250 },
      },
    });
    expect(res.status).toBe(200);
    // exitShortAt 550 is not below sellAbove 500 or 550: those two cells are left out.
    expect(res.body.cells.map((c: Json) => [c.x, c.y])).toEqual([
      [500, 300],
      [550, 300],
      [600, 300],
      [600, 550],
    ]);
    const cell = res.body.cells[2];
    // The in-sample half of the (600, 300) cell is the single run over the first 84 minutes.
    const inSample = await trader.post("/api/backtests", {
      ...RANGE,
      to: T0 + 84 * 60_000,
      metric: "spread",
      sellAbove: 600,
      exitShortAt: 300,
    });
    expect(cell.inSample).toEqual(inSample.body.summary);
    expect(cell.outOfSample.trades).toBeGreaterThanOrEqual(0);
  });

  it("gives the minutes and options a run reads: core's sweep over them is the server's", async () => {
    const history = await trader.post("/api/backtests/history", RANGE);
    expect(history.status).toBe(200);
    const { times, buy, sell, mid, options } = history.body;
    // Minute 17 has only a BUY candle: no minute of the joined sides.
    expect(times).toHaveLength(MINUTES - 1);
    expect(times).not.toContain(T0 + BUY_ONLY * 60_000);
    expect(sell[0]).toBe(sellAt(0));
    expect(mid).toBeUndefined();
    const sweep = {
      x: { field: "sellAbove", from: 500, to: 600, step: 50 },
      y: { field: "exitShortAt", from: 300, to: 550, step: 250 },
    } as const;
    const server = await trader.post("/api/backtests/sweep", {
      ...RANGE,
      metric: "spread",
      lots: 1,
      sweep,
    });
    const here = sweepBacktest({ times, buy, sell }, { metric: "spread", lots: 1 }, options, sweep);
    expect(JSON.parse(JSON.stringify(here))).toEqual(server.body.cells);
    const bad = await trader.post("/api/backtests/history", { ...RANGE, from: RANGE.to });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain("from must be before to");
    const unknown = await trader.post("/api/backtests/history", { ...RANGE, sellAbove: 1 });
    expect(unknown.status).toBe(400);
  });
});
