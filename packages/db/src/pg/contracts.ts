import { and, desc, eq, gte, lt } from "drizzle-orm";
import { rollOf } from "../store/instrument-rows.ts";
import type { ContractStore } from "../store/store.ts";
import type { PgDb } from "./connection.ts";
import { instrumentContracts, instrumentRolls } from "./schema.ts";

export function pgContracts(db: PgDb): ContractStore {
  return {
    observe: (key, contract, expiry, at) =>
      db.transaction(async (tx) => {
        const set = { contract, expiry: expiry ?? null, seenAt: at };
        // The first sighting inserts; otherwise the row is locked, so two leaders for a moment
        // (a failover) record one roll, not two.
        const inserted = await tx
          .insert(instrumentContracts)
          .values({ key, ...set })
          .onConflictDoNothing()
          .returning({ key: instrumentContracts.key });
        if (inserted.length > 0) return undefined;
        const [known] = await tx
          .select()
          .from(instrumentContracts)
          .where(eq(instrumentContracts.key, key))
          .for("update");
        if (!known || known.contract === contract) return undefined;
        await tx.update(instrumentContracts).set(set).where(eq(instrumentContracts.key, key));
        const roll = { key, at, fromContract: known.contract, toContract: contract };
        await tx.insert(instrumentRolls).values(roll);
        return rollOf(roll);
      }),
    rolls: async ({ key, from, to, limit }) => {
      const latest = await db
        .select()
        .from(instrumentRolls)
        .where(
          and(
            gte(instrumentRolls.at, from),
            lt(instrumentRolls.at, to),
            key === undefined ? undefined : eq(instrumentRolls.key, key),
          ),
        )
        .orderBy(desc(instrumentRolls.at), desc(instrumentRolls.id))
        .limit(limit);
      return latest.reverse().map(rollOf);
    },
  };
}
