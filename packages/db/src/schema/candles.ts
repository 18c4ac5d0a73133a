import { integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * OHLC candles of every spread, per timeframe. 1-minute candles are the record; coarser
 * timeframes are kept beside them (built by core from the same samples) so a chart of a year
 * reads at most 1,500 rows instead of aggregating half a million.
 */
export const spreadCandles = sqliteTable(
  "spread_candles",
  {
    symbol: text("symbol").notNull(),
    timeframe: text("timeframe").notNull(),
    /** Start of the candle's bucket, epoch ms (buckets aligned to Asia/Kolkata). */
    timestamp: integer("timestamp").notNull(),
    open: real("open").notNull(),
    high: real("high").notNull(),
    low: real("low").notNull(),
    close: real("close").notNull(),
  },
  (table) => [primaryKey({ columns: [table.symbol, table.timeframe, table.timestamp] })],
);
