// What `.output()` costs on the answers polled most: GET /api/prices and /api/calculations
// (every client, every 2 s) with every spread the hub computes and its perLot, and a full
// chart answer (1,500 candles). Each is parsed by the procedure's own schema and, for scale, serialised as
// the REST adapter then does. Printed, never asserted.
import { type Candle, defaultDuties, MAX_CHART_CANDLES, type Quote } from "@spreadwatch/core";
import { MarketHub } from "../src/market/hub.ts";
import { candlesReply } from "../src/routers/chart.ts";
import { marketCalculations, marketPrices } from "../src/stream/snapshot-schema.ts";

const RUNS = Number(process.env.BENCH_OUTPUT_RUNS ?? 20_000);

const hub = new MarketHub(defaultDuties());
const ts = Date.now();
const book = (source: "cme" | "mcx", key: string, bid: number): Quote => ({
  source,
  key,
  bid,
  ask: bid * 1.0005,
  ts,
});
const quotes: Quote[] = [
  { source: "fx", key: "USDINR", price: 83.2, ts },
  book("cme", "GC", 2400),
  book("cme", "SI", 30),
  book("cme", "HG", 4.5),
  book("cme", "NG", 2.5),
  book("cme", "CL", 80),
  book("mcx", "GOLD", 72_000),
  book("mcx", "SILVER", 90_000),
  book("mcx", "COPPER", 850),
  book("mcx", "NATURALGAS", 210),
  book("mcx", "CRUDEOIL", 6_700),
  { source: "spot", key: "XAUUSD", price: 2_399, ts },
  { source: "spot", key: "XAGUSD", price: 29.9, ts },
  { source: "index", key: "NIFTY50", price: 24_000, ts },
  { source: "index", key: "GIFTNIFTY", price: 24_050, ts },
];
for (const quote of quotes) hub.ingest(quote);
const { prices, calculations } = hub.snapshot();

const candles: Candle[] = Array.from({ length: MAX_CHART_CANDLES }, (_, i) => ({
  timestamp: ts - (MAX_CHART_CANDLES - i) * 60_000,
  open: 100 + i,
  high: 110 + i,
  low: 90 + i,
  close: 105 + i,
}));
const chartAnswer = { data: candles };

function microseconds(fn: () => unknown): number {
  for (let i = 0; i < RUNS / 10; i++) fn();
  const start = process.hrtime.bigint();
  for (let i = 0; i < RUNS; i++) fn();
  return Number(process.hrtime.bigint() - start) / 1e3 / RUNS;
}

const rows = [
  ["/api/prices", marketPrices, prices],
  [
    `/api/calculations (${Object.keys(calculations).length - 1} spreads)`,
    marketCalculations,
    calculations,
  ],
  [`/api/chart-data (${MAX_CHART_CANDLES} candles)`, candlesReply, chartAnswer],
] as const;
console.log(`output validation, ${RUNS} runs each (µs per answer)`);
console.log("answer                              parse   JSON.stringify");
for (const [name, schema, value] of rows) {
  const parse = microseconds(() => schema.parse(value));
  const stringify = microseconds(() => JSON.stringify(value));
  console.log(
    `${name.padEnd(34)} ${parse.toFixed(1).padStart(7)} ${stringify.toFixed(1).padStart(16)}`,
  );
}
