import { and, desc, eq, gte, lt, sql } from "drizzle-orm";
import type { StoredCandle } from "../candles.ts";
import type { CandleQuery, CandleStore } from "../store/store.ts";
import type { PgDb } from "./connection.ts";
import { spreadCandles } from "./schema/index.ts";

/** 7 parameters a row; PostgreSQL takes at most 65,535 per statement. */
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

export function pgCandles(db: PgDb): CandleStore {
  const recent = async (query: CandleQuery) => {
    const conditions = [
      eq(spreadCandles.symbol, query.symbol),
      eq(spreadCandles.timeframe, query.timeframe),
    ];
    if (query.from !== undefined) conditions.push(gte(spreadCandles.timestamp, query.from));
    if (query.to !== undefined) conditions.push(lt(spreadCandles.timestamp, query.to));
    const rows = await db
      .select({
        timestamp: spreadCandles.timestamp,
        open: spreadCandles.open,
        high: spreadCandles.high,
        low: spreadCandles.low,
        close: spreadCandles.close,
      })
      .from(spreadCandles)
      .where(and(...conditions))
      .orderBy(desc(spreadCandles.timestamp))
      .limit(Math.min(query.limit, Number.MAX_SAFE_INTEGER));
    return rows.reverse();
  };
  return {
    async save(candles) {
      const rows = mergeBuckets(candles);
      if (rows.length === 0) return;
      await db.transaction(async (tx) => {
        for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
          await tx
            .insert(spreadCandles)
            .values(rows.slice(i, i + ROWS_PER_INSERT))
            .onConflictDoUpdate({
              target: [spreadCandles.symbol, spreadCandles.timeframe, spreadCandles.timestamp],
              set: {
                high: sql`greatest(${spreadCandles.high}, excluded.high)`,
                low: sql`least(${spreadCandles.low}, excluded.low)`,
                close: sql`excluded.close`,
              },
            });
        }
      });
    },
    recent,
    async has(timeframe) {
      const rows = await db
        .select({ t: spreadCandles.timestamp })
        .from(spreadCandles)
        .where(eq(spreadCandles.timeframe, timeframe))
        .limit(1);
      return rows.length > 0;
    },
    async prune(timeframe, cutoff) {
      const result = await db
        .delete(spreadCandles)
        .where(and(eq(spreadCandles.timeframe, timeframe), lt(spreadCandles.timestamp, cutoff)));
      return result.rowCount ?? 0;
    },
    all: (symbol, timeframe) => recent({ symbol, timeframe, limit: Number.MAX_SAFE_INTEGER }),
  };
}
