import type BetterSqlite3 from "better-sqlite3";
import { and, asc, desc, gte, lt, sql } from "drizzle-orm";
import { distinctLeading } from "../store/queries.ts";
import type { ContractCandleStore } from "../store/store.ts";
import { closesSql, prepareCloses, readCloses } from "./candles.ts";
import type { Database } from "./connection.ts";
import { contractCandles } from "./schema.ts";
import type { Sqlite } from "./store.ts";

const statements = new WeakMap<
  object,
  {
    recorded: BetterSqlite3.Statement;
    fill: BetterSqlite3.Statement;
    prune: BetterSqlite3.Statement;
  }
>();
const closesStatements = new WeakMap<object, BetterSqlite3.Statement>();

/** Minutes before a cutoff, contract by contract through the (contract, timestamp) key. */
export const CONTRACT_PRUNE_SQL = `DELETE FROM contract_candles
  WHERE contract IN (${distinctLeading("contract_candles", "contract")}) AND timestamp < ?`;

/**
 * Raw prepared statements, once per connection (a backfill writes ~40,000 minutes a contract).
 * A recorded minute merges like the spread candles and becomes recorded; a fetched or simulated
 * one only fills an absent minute.
 */
function writers(db: Database) {
  let found = statements.get(db.$client);
  if (!found) {
    const columns = "(key, contract, timestamp, open, high, low, close, source)";
    found = {
      recorded: db.$client.prepare(
        `INSERT INTO contract_candles ${columns} VALUES (?, ?, ?, ?, ?, ?, ?, 'recorded')
         ON CONFLICT (contract, timestamp) DO UPDATE SET
           key = excluded.key,
           open = CASE WHEN source = 'recorded' THEN open ELSE excluded.open END,
           high = CASE WHEN source = 'recorded' THEN max(high, excluded.high) ELSE excluded.high END,
           low = CASE WHEN source = 'recorded' THEN min(low, excluded.low) ELSE excluded.low END,
           close = excluded.close, source = 'recorded'`,
      ),
      fill: db.$client.prepare(
        `INSERT INTO contract_candles ${columns} VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (contract, timestamp) DO NOTHING`,
      ),
      prune: db.$client.prepare(CONTRACT_PRUNE_SQL),
    };
    statements.set(db.$client, found);
  }
  return found;
}

export function sqliteContractCandles({ db, run }: Sqlite): ContractCandleStore {
  return {
    write: (key, contract, source, candles) =>
      run(() => {
        if (candles.length === 0) return 0;
        const { recorded, fill } = writers(db);
        let written = 0;
        db.$client.transaction(() => {
          for (const c of candles) {
            const info =
              source === "recorded"
                ? recorded.run(key, contract, c.timestamp, c.open, c.high, c.low, c.close)
                : fill.run(key, contract, c.timestamp, c.open, c.high, c.low, c.close, source);
            written += info.changes;
          }
        })();
        return written;
      }),
    range: (contract, from, to) =>
      run(() =>
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
          .where(
            and(
              sql`${contractCandles.contract} = ${contract}`,
              gte(contractCandles.timestamp, from),
              lt(contractCandles.timestamp, to),
            ),
          )
          .orderBy(asc(contractCandles.timestamp))
          .all(),
      ),
    // Rows into typed arrays through a SQL function, as the spread candles' closes.
    closes: (contract, from, to) =>
      run(() => {
        let statement = closesStatements.get(db.$client);
        if (!statement) {
          statement = prepareCloses(db, closesSql("contract_candles", "contract = ?"));
          closesStatements.set(db.$client, statement);
        }
        return readCloses(db, statement, [contract, from, to]);
      }),
    lastMinute: (contract) =>
      run(
        () =>
          db
            .select({ to: sql<number | null>`max(${contractCandles.timestamp})` })
            .from(contractCandles)
            .where(sql`${contractCandles.contract} = ${contract}`)
            .get()?.to ?? undefined,
      ),
    latestContract: (key) =>
      run(
        () =>
          db
            .select({ contract: contractCandles.contract })
            .from(contractCandles)
            .where(sql`${contractCandles.key} = ${key}`)
            .orderBy(desc(contractCandles.timestamp))
            .limit(1)
            .get()?.contract,
      ),
    coverage: (key) =>
      run(() =>
        db
          .select({
            contract: contractCandles.contract,
            from: sql<number>`min(${contractCandles.timestamp})`,
            to: sql<number>`max(${contractCandles.timestamp})`,
            minutes: sql<number>`count(*)`,
          })
          .from(contractCandles)
          .where(
            key === undefined
              ? undefined
              : sql`${contractCandles.contract} IN (SELECT DISTINCT contract FROM contract_candles WHERE key = ${key})`,
          )
          .groupBy(contractCandles.contract)
          .orderBy(sql`max(${contractCandles.timestamp})`)
          .all(),
      ),
    // Through the (contract, timestamp) key one contract at a time, as the candles' prune.
    prune: (cutoff) =>
      run(() => {
        const { prune } = writers(db);
        return prune.run(cutoff).changes;
      }),
  };
}
