import { and, desc, eq, gte, lt, sql } from "drizzle-orm";
import type { Database } from "./connection.ts";
import { spreadCandles } from "./schema/index.ts";

export interface StoredCandle {
  symbol: string;
  timeframe: string;
  timestamp: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

export type CandleRow = Pick<StoredCandle, "timestamp" | "open" | "high" | "low" | "close">;

/**
 * Writes candles in one transaction. A candle already stored for the same bucket is merged, not
 * replaced: its open stays, high/low widen, close moves on — so the part of a minute recorded
 * before a restart survives the part recorded after it.
 */
export function saveCandles(db: Database, candles: readonly StoredCandle[]): void {
  if (candles.length === 0) return;
  db.transaction((tx) => {
    for (const candle of candles) {
      tx.insert(spreadCandles)
        .values(candle)
        .onConflictDoUpdate({
          target: [spreadCandles.symbol, spreadCandles.timeframe, spreadCandles.timestamp],
          set: {
            high: sql`max(${spreadCandles.high}, excluded.high)`,
            low: sql`min(${spreadCandles.low}, excluded.low)`,
            close: sql`excluded.close`,
          },
        })
        .run();
    }
  });
}

/** The most recent `limit` candles in [from, to), oldest first. */
export function recentCandles(
  db: Database,
  query: { symbol: string; timeframe: string; from?: number; to?: number; limit: number },
): CandleRow[] {
  const conditions = [
    eq(spreadCandles.symbol, query.symbol),
    eq(spreadCandles.timeframe, query.timeframe),
  ];
  if (query.from !== undefined) conditions.push(gte(spreadCandles.timestamp, query.from));
  if (query.to !== undefined) conditions.push(lt(spreadCandles.timestamp, query.to));
  return db
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
    .limit(query.limit)
    .all()
    .reverse();
}

/** Whether any candle of the timeframe exists (to decide on a first-start backfill). */
export function hasCandles(db: Database, timeframe: string): boolean {
  return (
    db
      .select({ t: spreadCandles.timestamp })
      .from(spreadCandles)
      .where(eq(spreadCandles.timeframe, timeframe))
      .limit(1)
      .get() !== undefined
  );
}

/** Deletes candles of a timeframe that start before `cutoff`; returns how many. */
export function pruneCandles(db: Database, timeframe: string, cutoff: number): number {
  return db
    .delete(spreadCandles)
    .where(and(eq(spreadCandles.timeframe, timeframe), lt(spreadCandles.timestamp, cutoff)))
    .run().changes;
}

export function allCandles(db: Database, symbol: string, timeframe: string): CandleRow[] {
  return recentCandles(db, { symbol, timeframe, limit: Number.MAX_SAFE_INTEGER });
}
