import { doublePrecision, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { epochMs } from "./users.ts";

export const spreadCandles = pgTable(
  "spread_candles",
  {
    symbol: text("symbol").notNull(),
    timeframe: text("timeframe").notNull(),
    timestamp: epochMs("timestamp").notNull(),
    open: doublePrecision("open").notNull(),
    high: doublePrecision("high").notNull(),
    low: doublePrecision("low").notNull(),
    close: doublePrecision("close").notNull(),
  },
  (table) => [primaryKey({ columns: [table.symbol, table.timeframe, table.timestamp] })],
);
