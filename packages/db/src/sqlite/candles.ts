import type BetterSqlite3 from "better-sqlite3";
import { and, asc, desc, eq, getTableName, inArray } from "drizzle-orm";
import { candleRange, candlesBefore, ohlc } from "../store/queries.ts";
import type { CandleQuery, CandleStore, CloseColumns } from "../store/store.ts";
import type { StoredCandle } from "../store/types.ts";
import { changed, type Database } from "./connection.ts";
import { type instrumentCandles, spreadCandles } from "./schema.ts";
import type { Sqlite } from "./store.ts";

type CandleTable = typeof spreadCandles | typeof instrumentCandles;

const upserts = new WeakMap<object, Map<string, BetterSqlite3.Statement>>();

/**
 * A raw prepared statement, once per connection and table: a 30-day backfill is ~700,000 rows,
 * 8× faster than the builder. A candle already stored for the same bucket is merged, not
 * replaced: its open stays, high/low widen, close moves on.
 */
function upsertStatement(db: Database, table: string): BetterSqlite3.Statement {
  let statements = upserts.get(db.$client);
  if (!statements) {
    statements = new Map();
    upserts.set(db.$client, statements);
  }
  let statement = statements.get(table);
  if (!statement) {
    statement = db.$client.prepare(
      `INSERT INTO ${table} (symbol, timeframe, timestamp, open, high, low, close)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (symbol, timeframe, timestamp) DO UPDATE SET
         high = max(high, excluded.high), low = min(low, excluded.low), close = excluded.close`,
    );
    statements.set(table, statement);
  }
  return statement;
}

function saveCandles(db: Database, table: string, candles: readonly StoredCandle[]): void {
  if (candles.length === 0) return;
  const insert = upsertStatement(db, table);
  db.$client.transaction(() => {
    for (const c of candles)
      insert.run(c.symbol, c.timeframe, c.timestamp, c.open, c.high, c.low, c.close);
  })();
}

/** [timestamp, close] rows as two columns, grown by doubling. */
export function closeColumns(rows: Iterable<readonly [number, number]>): CloseColumns {
  let times = new Float64Array(1024);
  let closes = new Float64Array(1024);
  let n = 0;
  for (const [t, close] of rows) {
    if (n === times.length) {
      const grownTimes = new Float64Array(n * 2);
      grownTimes.set(times);
      times = grownTimes;
      const grownCloses = new Float64Array(n * 2);
      grownCloses.set(closes);
      closes = grownCloses;
    }
    times[n] = t;
    closes[n] = close;
    n++;
  }
  return { times: times.slice(0, n), closes: closes.slice(0, n) };
}

/** Spread candles, or (given `instrumentCandles`) the instruments' mid candles: one shape. */
export function sqliteCandles(
  { db, run }: Sqlite,
  table: CandleTable = spreadCandles,
): CandleStore {
  const name = getTableName(table);
  const recent = (query: CandleQuery) =>
    run(() => {
      const newest = db
        .select(ohlc(table))
        .from(table)
        .where(candleRange(table, query))
        .orderBy(desc(table.timestamp));
      return newest.limit(query.limit).all().reverse();
    });
  let closesStatement: BetterSqlite3.Statement | undefined;
  return {
    save: (candles) => run(() => saveCandles(db, name, candles)),
    recent,
    // Raw rows of a prepared statement, iterated into typed arrays: no row outlives its step,
    // so a year of minutes is ~2× faster than .all() and ~12× faster than the builder's objects.
    closes: (query) =>
      run(() => {
        closesStatement ??= db.$client
          .prepare(
            `SELECT timestamp, close FROM ${name}
             WHERE symbol = ? AND timeframe = ? AND timestamp >= ? AND timestamp < ?
             ORDER BY timestamp`,
          )
          .raw(true);
        const rows = closesStatement.iterate(
          query.symbol,
          query.timeframe,
          query.from,
          query.to,
        ) as IterableIterator<[number, number]>;
        return closeColumns(rows);
      }),
    first: (symbol, timeframe) =>
      run(
        () =>
          db
            .select(ohlc(table))
            .from(table)
            .where(and(eq(table.symbol, symbol), eq(table.timeframe, timeframe)))
            .orderBy(asc(table.timestamp))
            .limit(1)
            .all()[0],
      ),
    has: (timeframe) =>
      run(() => {
        const ofTimeframe = eq(table.timeframe, timeframe);
        return db.select().from(table).where(ofTimeframe).limit(1).all().length > 0;
      }),
    prune: (timeframe, cutoff) =>
      run(() => changed(db.delete(table).where(candlesBefore(table, timeframe, cutoff)))),
    remove: (symbols) =>
      run(() =>
        symbols.length === 0
          ? 0
          : changed(db.delete(table).where(inArray(table.symbol, [...symbols]))),
      ),
    all: (symbol, timeframe) => recent({ symbol, timeframe, limit: Number.MAX_SAFE_INTEGER }),
  };
}
