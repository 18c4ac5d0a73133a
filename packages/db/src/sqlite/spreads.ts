import { asc, count, eq, inArray } from "drizzle-orm";
import { legsJson, storedSpread } from "../store/spread-rows.ts";
import type { SpreadDefinitionStore } from "../store/store.ts";
import { alerts, spreadDefinitions } from "./schema.ts";
import type { Sqlite } from "./store.ts";

export function sqliteSpreads({ db, run }: Sqlite): SpreadDefinitionStore {
  const countOf = (ownerId?: number) =>
    db
      .select({ n: count() })
      .from(spreadDefinitions)
      .where(ownerId === undefined ? undefined : eq(spreadDefinitions.ownerId, ownerId))
      .get()?.n ?? 0;
  const find = (id: number) => {
    const row = db.select().from(spreadDefinitions).where(eq(spreadDefinitions.id, id)).get();
    return row && storedSpread(row);
  };
  return {
    list: () =>
      run(() =>
        db
          .select()
          .from(spreadDefinitions)
          .orderBy(asc(spreadDefinitions.id))
          .all()
          .map(storedSpread),
      ),
    find: (id) => run(() => find(id)),
    create: (ownerId, fields, now, limits) =>
      run(() =>
        // One writer at a time: the counts and the insert cannot interleave with another create.
        db.transaction(() => {
          if (countOf(ownerId) >= limits.perOwner) return { kind: "full", limit: "owner" } as const;
          if (countOf() >= limits.total) return { kind: "full", limit: "total" } as const;
          const row = db
            .insert(spreadDefinitions)
            .values({
              ...fields,
              legs: legsJson(fields.legs),
              ownerId,
              createdAt: now,
              updatedAt: now,
            })
            .returning()
            .get();
          return { kind: "created", spread: storedSpread(row) } as const;
        }),
      ),
    update: (id, fields, now) =>
      run(() => {
        const row = db
          .update(spreadDefinitions)
          .set({ ...fields, legs: legsJson(fields.legs), updatedAt: now })
          .where(eq(spreadDefinitions.id, id))
          .returning()
          .get();
        return row && storedSpread(row);
      }),
    delete: (id, alertSymbols) =>
      run(() =>
        db.transaction(() => {
          const gone = db
            .delete(spreadDefinitions)
            .where(eq(spreadDefinitions.id, id))
            .returning({ id: spreadDefinitions.id })
            .all();
          if (gone.length === 0) return { deleted: false, alertOwners: [] };
          const owners =
            alertSymbols.length === 0
              ? []
              : db
                  .delete(alerts)
                  .where(inArray(alerts.commodityType, [...alertSymbols]))
                  .returning({ userId: alerts.userId })
                  .all();
          return { deleted: true, alertOwners: [...new Set(owners.map((o) => o.userId))] };
        }),
      ),
    countByOwner: (ownerId) => run(() => countOf(ownerId)),
  };
}
