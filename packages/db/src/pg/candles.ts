import { and, asc, desc, eq, getTableName, inArray, sql } from "drizzle-orm";
import { candleRange, candlesBefore, distinctLeading, ohlc } from "../store/queries.ts";
import type { CandleQuery, CandleStore } from "../store/store.ts";
import type { StoredCandle } from "../store/types.ts";
import { changed, type PgDb } from "./connection.ts";
import { type instrumentCandles, spreadCandles } from "./schema.ts";

type CandleTable = typeof spreadCandles | typeof instrumentCandles;

/** Rows per statement: big enough to amortise the round trip, small enough to stay responsive. */
const ROWS_PER_INSERT = 5_000;

/** Merges candles of one bucket first: one INSERT … ON CONFLICT cannot touch a row twice. */
function mergeBuckets(candles: readonly StoredCandle[]): StoredCandle[] {
  const merged = new Map<string, StoredCandle>();
  for (const c of candles) {
    const key = `${c.symbol}\u0000${c.timeframe}\u0000${c.timestamp}`;
    const seen = merged.get(key);
    if (!seen) merged.set(key, { ...c });
    else {
      seen.high = Math.max(seen.high, c.high);
      seen.low = Math.min(seen.low, c.low);
      seen.close = c.close;
    }
  }
  return [...merged.values()];
}

/** Spread candles, or (given `instrumentCandles`) the instruments' mid candles: one shape. */
export function pgCandles(db: PgDb, table: CandleTable = spreadCandles): CandleStore {
  const name = sql.identifier(getTableName(table));
  const recent = async (query: CandleQuery) => {
    const newest = db
      .select(ohlc(table))
      .from(table)
      .where(candleRange(table, query))
      .orderBy(desc(table.timestamp));
    return (await newest.limit(Math.min(query.limit, Number.MAX_SAFE_INTEGER))).reverse();
  };
  /** `merge`: open stays, high/low widen, close moves on; `replace`: the candle as given. */
  const write = async (candles: readonly StoredCandle[], mode: "merge" | "replace") => {
    const rows = mergeBuckets(candles);
    if (rows.length === 0) return;
    const onConflict =
      mode === "merge"
        ? sql`high = greatest(${name}.high, excluded.high),
              low = least(${name}.low, excluded.low),
              close = excluded.close`
        : sql`open = excluded.open, high = excluded.high, low = excluded.low,
              close = excluded.close`;
    await db.transaction(async (tx) => {
      for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
        const batch = rows.slice(i, i + ROWS_PER_INSERT);
        // sql.param: one array parameter (a bare array would be spread into a list of them).
        const column = <K extends keyof StoredCandle>(key: K) =>
          sql.param(batch.map((c) => c[key]));
        // Seven array parameters instead of seven per row: a 30-day backfill is ~700,000 rows,
        // and building and parsing that many placeholders cost more than the writes.
        await tx.execute(sql`
          INSERT INTO ${name} (symbol, timeframe, timestamp, open, high, low, close)
          SELECT * FROM unnest(${column("symbol")}::text[], ${column("timeframe")}::text[],
                               ${column("timestamp")}::bigint[], ${column("open")}::float8[],
                               ${column("high")}::float8[], ${column("low")}::float8[],
                               ${column("close")}::float8[])
          ON CONFLICT (symbol, timeframe, timestamp) DO UPDATE SET ${onConflict}`);
      }
    });
  };
  return {
    async closes(query) {
      const rows = await db
        .select({ timestamp: table.timestamp, close: table.close })
        .from(table)
        .where(candleRange(table, query))
        .orderBy(asc(table.timestamp));
      return {
        times: Float64Array.from(rows, (row) => row.timestamp),
        closes: Float64Array.from(rows, (row) => row.close),
      };
    },
    save: (candles) => write(candles, "merge"),
    replace: (candles) => write(candles, "replace"),
    recent,
    async first(symbol, timeframe) {
      const [oldest] = await db
        .select(ohlc(table))
        .from(table)
        .where(and(eq(table.symbol, symbol), eq(table.timeframe, timeframe)))
        .orderBy(asc(table.timestamp))
        .limit(1);
      return oldest;
    },
    async has(timeframe) {
      const ofTimeframe = eq(table.timeframe, timeframe);
      return (await db.select().from(table).where(ofTimeframe).limit(1)).length > 0;
    },
    // Symbol by symbol through the (symbol, timeframe, timestamp) key, as on SQLite: a filter on
    // timeframe and time alone scans the whole table.
    prune: (timeframe, cutoff) =>
      changed(
        db
          .delete(table)
          .where(
            and(
              sql`${table.symbol} IN (${sql.raw(distinctLeading(getTableName(table), "symbol"))})`,
              candlesBefore(table, timeframe, cutoff),
            ),
          ),
      ),
    remove: async (symbols) =>
      symbols.length === 0
        ? 0
        : changed(db.delete(table).where(inArray(table.symbol, [...symbols]))),
    all: (symbol, timeframe) => recent({ symbol, timeframe, limit: Number.MAX_SAFE_INTEGER }),
  };
}
