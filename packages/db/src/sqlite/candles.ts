import type BetterSqlite3 from "better-sqlite3";
import { desc, eq } from "drizzle-orm";
import { candleRange, candlesBefore, ohlc } from "../store/queries.ts";
import type { CandleQuery, CandleStore } from "../store/store.ts";
import type { StoredCandle } from "../store/types.ts";
import { changed, type Database } from "./connection.ts";
import { spreadCandles } from "./schema.ts";
import type { Sqlite } from "./store.ts";

const upserts = new WeakMap<object, BetterSqlite3.Statement>();

/**
 * A raw prepared statement, once per connection: a 30-day backfill is ~700,000 rows, 8× faster
 * than the builder. A candle already stored for the same bucket is merged, not replaced: its
 * open stays, high/low widen, close moves on.
 */
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

function saveCandles(db: Database, candles: readonly StoredCandle[]): void {
  if (candles.length === 0) return;
  const insert = upsertStatement(db);
  db.$client.transaction(() => {
    for (const c of candles)
      insert.run(c.symbol, c.timeframe, c.timestamp, c.open, c.high, c.low, c.close);
  })();
}

export function sqliteCandles({ db, run }: Sqlite): CandleStore {
  const recent = (query: CandleQuery) =>
    run(() => {
      const newest = db
        .select(ohlc(spreadCandles))
        .from(spreadCandles)
        .where(candleRange(spreadCandles, query))
        .orderBy(desc(spreadCandles.timestamp));
      return newest.limit(query.limit).all().reverse();
    });
  return {
    save: (candles) => run(() => saveCandles(db, candles)),
    recent,
    has: (timeframe) =>
      run(() => {
        const ofTimeframe = eq(spreadCandles.timeframe, timeframe);
        return db.select().from(spreadCandles).where(ofTimeframe).limit(1).all().length > 0;
      }),
    prune: (timeframe, cutoff) =>
      run(() =>
        changed(db.delete(spreadCandles).where(candlesBefore(spreadCandles, timeframe, cutoff))),
      ),
    all: (symbol, timeframe) => recent({ symbol, timeframe, limit: Number.MAX_SAFE_INTEGER }),
  };
}
