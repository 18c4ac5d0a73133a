import { and, desc, eq, gte, lt } from "drizzle-orm";
import { rollOf } from "../store/instrument-rows.ts";
import type { ContractStore } from "../store/store.ts";
import { instrumentContracts, instrumentRolls } from "./schema.ts";
import type { Sqlite } from "./store.ts";

export function sqliteContracts({ db, run }: Sqlite): ContractStore {
  return {
    observe: (key, contract, expiry, at) =>
      run(() =>
        db.transaction(() => {
          const known = db
            .select()
            .from(instrumentContracts)
            .where(eq(instrumentContracts.key, key))
            .get();
          if (known?.contract === contract) return undefined;
          const set = { contract, expiry: expiry ?? null, seenAt: at };
          db.insert(instrumentContracts)
            .values({ key, ...set })
            .onConflictDoUpdate({ target: instrumentContracts.key, set })
            .run();
          if (!known) return undefined;
          const roll = { key, at, fromContract: known.contract, toContract: contract };
          db.insert(instrumentRolls).values(roll).run();
          return rollOf(roll);
        }),
      ),
    rolls: ({ key, from, to, limit }) =>
      run(() => {
        const when = and(
          gte(instrumentRolls.at, from),
          lt(instrumentRolls.at, to),
          key === undefined ? undefined : eq(instrumentRolls.key, key),
        );
        const latest = db
          .select()
          .from(instrumentRolls)
          .where(when)
          .orderBy(desc(instrumentRolls.at), desc(instrumentRolls.id))
          .limit(limit)
          .all();
        return latest.reverse().map(rollOf);
      }),
  };
}
