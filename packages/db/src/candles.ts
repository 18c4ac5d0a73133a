import type BetterSqlite3 from "better-sqlite3";
import { and, desc, eq, gte, lt } from "drizzle-orm";
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
  const insert = upsertStatement(db);
  // A raw prepared statement: a 30-day backfill is ~700,000 rows, 8× faster than the builder.
  db.$client.transaction(() => {
    for (const c of candles)
      insert.run(c.symbol, c.timeframe, c.timestamp, c.open, c.high, c.low, c.close);
  })();
}

const upserts = new WeakMap<object, BetterSqlite3.Statement>();

function upsertStatement(db: Database): BetterSqlite3.Statement {
  let statement = upserts.get(db.$client);
  if (!statement) {
    statement = db.$client.prepare(
      `INSERT INTO spread_candles (symbol, timeframe, timestamp, open, high, low, close)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (symbol, timeframe, timestamp) DO UPDATE SET
         high = max(high, excluded.high), low = min(low, excluded.low), close = excluded.close`,
    );
    upserts.set(db.$client, statement);
  }
  return statement;
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
