import { and, asc, desc, eq, gte, lt, sql } from "drizzle-orm";
import { distinctLeading } from "../store/queries.ts";
import type { ContractCandleStore } from "../store/store.ts";
import { changed, type PgDb } from "./connection.ts";
import { contractCandles } from "./schema.ts";

/** A contract's minutes with open times in [from, to). */
const minutesOf = (contract: string, from: number, to: number) =>
  and(
    eq(contractCandles.contract, contract),
    gte(contractCandles.timestamp, from),
    lt(contractCandles.timestamp, to),
  );

/** Rows per statement, as pg/candles.ts. */
const ROWS_PER_INSERT = 5_000;

/** sqlite/contract-candles.ts's rules: a recorded minute merges, any other fills an absent one. */
export function pgContractCandles(db: PgDb): ContractCandleStore {
  return {
    async write(key, contract, source, candles) {
      // One INSERT … ON CONFLICT cannot touch a row twice: the last candle of a minute wins.
      const rows = [...new Map(candles.map((c) => [c.timestamp, c])).values()];
      if (rows.length === 0) return 0;
      let written = 0;
      await db.transaction(async (tx) => {
        for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
          const batch = rows.slice(i, i + ROWS_PER_INSERT);
          const column = (name: "timestamp" | "open" | "high" | "low" | "close") =>
            sql.param(batch.map((c) => c[name]));
          const values = sql`
            SELECT ${key}::text, ${contract}::text, * , ${source}::text FROM unnest(
              ${column("timestamp")}::bigint[], ${column("open")}::float8[],
              ${column("high")}::float8[], ${column("low")}::float8[], ${column("close")}::float8[])`;
          const t = sql.identifier("contract_candles");
          const onConflict =
            source === "recorded"
              ? sql`ON CONFLICT (contract, timestamp) DO UPDATE SET
                  key = excluded.key,
                  open = CASE WHEN ${t}.source = 'recorded' THEN ${t}.open ELSE excluded.open END,
                  high = CASE WHEN ${t}.source = 'recorded'
                    THEN greatest(${t}.high, excluded.high) ELSE excluded.high END,
                  low = CASE WHEN ${t}.source = 'recorded'
                    THEN least(${t}.low, excluded.low) ELSE excluded.low END,
                  close = excluded.close, source = 'recorded'`
              : sql`ON CONFLICT (contract, timestamp) DO NOTHING`;
          const result = await tx.execute(sql`
            INSERT INTO ${t} (key, contract, timestamp, open, high, low, close, source)
            ${values} ${onConflict}`);
          written += result.rowCount ?? 0;
        }
      });
      return written;
    },
    range: (contract, from, to) =>
      db
        .select({
          timestamp: contractCandles.timestamp,
          open: contractCandles.open,
          high: contractCandles.high,
          low: contractCandles.low,
          close: contractCandles.close,
          source: contractCandles.source,
        })
        .from(contractCandles)
        .where(minutesOf(contract, from, to))
        .orderBy(asc(contractCandles.timestamp)),
    async closes(contract, from, to) {
      const rows = await db
        .select({ timestamp: contractCandles.timestamp, close: contractCandles.close })
        .from(contractCandles)
        .where(minutesOf(contract, from, to))
        .orderBy(asc(contractCandles.timestamp));
      return {
        times: Float64Array.from(rows, (row) => row.timestamp),
        closes: Float64Array.from(rows, (row) => row.close),
      };
    },
    async lastMinute(contract) {
      const [row] = await db
        .select({ to: sql<string | null>`max(${contractCandles.timestamp})` })
        .from(contractCandles)
        .where(eq(contractCandles.contract, contract));
      return row?.to == null ? undefined : Number(row.to);
    },
    async latestContract(key) {
      const [row] = await db
        .select({ contract: contractCandles.contract })
        .from(contractCandles)
        .where(eq(contractCandles.key, key))
        .orderBy(desc(contractCandles.timestamp))
        .limit(1);
      return row?.contract;
    },
    async coverage(key) {
      const rows = await db
        .select({
          contract: contractCandles.contract,
          from: sql<string>`min(${contractCandles.timestamp})`,
          to: sql<string>`max(${contractCandles.timestamp})`,
          minutes: sql<string>`count(*)`,
        })
        .from(contractCandles)
        .where(
          key === undefined
            ? undefined
            : sql`${contractCandles.contract} IN (SELECT DISTINCT contract FROM contract_candles WHERE key = ${key})`,
        )
        .groupBy(contractCandles.contract)
        .orderBy(sql`max(${contractCandles.timestamp})`);
      return rows.map((r) => ({
        contract: r.contract,
        from: Number(r.from),
        to: Number(r.to),
        minutes: Number(r.minutes),
      }));
    },
    // Contract by contract through the (contract, timestamp) key, as the candles' prune.
    prune: (cutoff) =>
      changed(
        db
          .delete(contractCandles)
          .where(
            and(
              sql`${contractCandles.contract} IN (${sql.raw(distinctLeading("contract_candles", "contract"))})`,
              lt(contractCandles.timestamp, cutoff),
            ),
          ),
      ),
  };
}
