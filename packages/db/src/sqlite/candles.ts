import type BetterSqlite3 from "better-sqlite3";
import { and, asc, desc, eq, getTableName, inArray } from "drizzle-orm";
import { candleRange, distinctLeading, ohlc } from "../store/queries.ts";
import type { CandleQuery, CandleStore, CloseColumns } from "../store/store.ts";
import type { StoredCandle } from "../store/types.ts";
import { changed, type Database } from "./connection.ts";
import { type instrumentCandles, spreadCandles } from "./schema.ts";
import type { Sqlite } from "./store.ts";

type CandleTable = typeof spreadCandles | typeof instrumentCandles;

const prepared = new WeakMap<object, Map<string, BetterSqlite3.Statement>>();

/** One prepared statement per connection and SQL text: a 30-day backfill is ~700,000 rows. */
function statementFor(db: Database, sql: string): BetterSqlite3.Statement {
  let statements = prepared.get(db.$client);
  if (!statements) {
    statements = new Map();
    prepared.set(db.$client, statements);
  }
  let statement = statements.get(sql);
  if (!statement) {
    statement = db.$client.prepare(sql);
    statements.set(sql, statement);
  }
  return statement;
}

/**
 * A timeframe's candles before `cutoff`, read through the (symbol, timeframe, timestamp) key one
 * symbol at a time: a filter on timeframe and time alone read the whole table, and the recorder
 * prunes at every start and every few hours (a year of history is gigabytes).
 */
export const pruneSql = (table: string) =>
  `DELETE FROM ${table}
   WHERE symbol IN (${distinctLeading(table, "symbol")}) AND timeframe = ? AND timestamp < ?`;

const insertCandle = (table: string) =>
  `INSERT INTO ${table} (symbol, timeframe, timestamp, open, high, low, close)
   VALUES (?, ?, ?, ?, ?, ?, ?)
   ON CONFLICT (symbol, timeframe, timestamp) DO UPDATE SET`;

/**
 * A raw prepared statement, 8× faster than the builder. A candle already stored for the same
 * bucket is merged, not replaced: its open stays, high/low widen, close moves on.
 */
function upsertStatement(db: Database, table: string): BetterSqlite3.Statement {
  return statementFor(
    db,
    `${insertCandle(table)}
     high = max(high, excluded.high), low = min(low, excluded.low), close = excluded.close`,
  );
}

/** Writes a candle over its bucket's stored one (CandleStore.replace): a bucket made again. */
function replaceStatement(db: Database, table: string): BetterSqlite3.Statement {
  return statementFor(
    db,
    `${insertCandle(table)}
     open = excluded.open, high = excluded.high, low = excluded.low, close = excluded.close`,
  );
}

function saveCandles(
  db: Database,
  table: string,
  candles: readonly StoredCandle[],
  statement: (db: Database, table: string) => BetterSqlite3.Statement = upsertStatement,
): void {
  if (candles.length === 0) return;
  const insert = statement(db, table);
  db.$client.transaction(() => {
    for (const c of candles)
      insert.run(c.symbol, c.timeframe, c.timestamp, c.open, c.high, c.low, c.close);
  })();
}

/** Two columns filled row by row, grown by doubling. */
class ColumnSink {
  times = new Float64Array(1024);
  closes = new Float64Array(1024);
  n = 0;

  push(t: number, close: number): void {
    const n = this.n;
    if (n === this.times.length) {
      const times = new Float64Array(n * 2);
      times.set(this.times);
      this.times = times;
      const closes = new Float64Array(n * 2);
      closes.set(this.closes);
      this.closes = closes;
    }
    this.times[n] = t;
    this.closes[n] = close;
    this.n = n + 1;
  }

  /**
   * The columns, oldest first (sorted here only if SQLite handed the rows out of order): views
   * of the buffers, at most twice the rows long, rather than copies.
   */
  columns(): CloseColumns {
    const times = this.times.subarray(0, this.n);
    const closes = this.closes.subarray(0, this.n);
    for (let i = 1; i < times.length; i++)
      if ((times[i] as number) < (times[i - 1] as number)) return sortedColumns(times, closes);
    return { times, closes };
  }
}

function sortedColumns(times: Float64Array, closes: Float64Array): CloseColumns {
  const order = Array.from(times.keys()).sort(
    (a, b) => (times[a] as number) - (times[b] as number),
  );
  return {
    times: Float64Array.from(order, (i) => times[i] as number),
    closes: Float64Array.from(order, (i) => closes[i] as number),
  };
}

/** The SQL function a range read calls once per row; it writes into the connection's sink. */
const TAKE_CLOSE = "spreadwatch_take_close";
const sinks = new WeakMap<object, { current: ColumnSink }>();

/**
 * The connection's sink, `spreadwatch_take_close(timestamp, close)` registered on it once. A row
 * handed to a SQL function costs a call with two numbers; a row handed back by a statement costs
 * an array and an iterator step: a year of minutes is ~35 against ~170 ms of CPU (docs/backtest.md,
 * "Speed"). better-sqlite3 runs a statement to its end synchronously, so one sink a connection is
 * never shared by two reads at once.
 */
function sinkOf(db: Database): { current: ColumnSink } {
  let sink = sinks.get(db.$client);
  if (!sink) {
    const created = { current: new ColumnSink() };
    db.$client.function(TAKE_CLOSE, { directOnly: true }, (t, close) => {
      created.current.push(t as number, close as number);
      return null;
    });
    sinks.set(db.$client, created);
    sink = created;
  }
  return sink;
}

/** The range read of closes: one row back, its count; the rows themselves go to the sink. */
export function closesSql(table: string, where = "symbol = ? AND timeframe = ?"): string {
  return `SELECT count(${TAKE_CLOSE}(timestamp, close)) FROM (
    SELECT timestamp, close FROM ${table}
    WHERE ${where} AND timestamp >= ? AND timestamp < ?
    ORDER BY timestamp)`;
}

/** A statement of closesSql, prepared once its SQL function is on the connection. */
export function prepareCloses(db: Database, sql: string): BetterSqlite3.Statement {
  sinkOf(db);
  return db.$client.prepare(sql);
}

/** Runs a statement of prepareCloses with `params` and returns the columns its rows filled. */
export function readCloses(
  db: Database,
  statement: BetterSqlite3.Statement,
  params: readonly unknown[],
): CloseColumns {
  const sink = sinkOf(db);
  sink.current = new ColumnSink();
  try {
    statement.run(...params);
    return sink.current.columns();
  } finally {
    sink.current = new ColumnSink();
  }
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
    replace: (candles) => run(() => saveCandles(db, name, candles, replaceStatement)),
    recent,
    // Each row handed to a SQL function that fills typed arrays, none handed back (sinkOf).
    // The range is read from the covering index (symbol, timeframe, timestamp, close) alone.
    closes: (query) =>
      run(() => {
        closesStatement ??= prepareCloses(db, closesSql(name));
        return readCloses(db, closesStatement, [
          query.symbol,
          query.timeframe,
          query.from,
          query.to,
        ]);
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
      run(() => statementFor(db, pruneSql(name)).run(timeframe, cutoff).changes),
    remove: (symbols) =>
      run(() =>
        symbols.length === 0
          ? 0
          : changed(db.delete(table).where(inArray(table.symbol, [...symbols]))),
      ),
    all: (symbol, timeframe) => recent({ symbol, timeframe, limit: Number.MAX_SAFE_INTEGER }),
  };
}
