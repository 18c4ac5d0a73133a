import { asc, count, eq, inArray, sql } from "drizzle-orm";
import { legsJson, storedSpread } from "../store/spread-rows.ts";
import type { SpreadDefinitionStore } from "../store/store.ts";
import type { PgDb } from "./connection.ts";
import { alerts, spreadDefinitions } from "./schema.ts";

export function pgSpreads(db: PgDb): SpreadDefinitionStore {
  const countOf = async (on: PgDb, ownerId?: number) =>
    (
      await on
        .select({ n: count() })
        .from(spreadDefinitions)
        .where(ownerId === undefined ? undefined : eq(spreadDefinitions.ownerId, ownerId))
    )[0]?.n ?? 0;
  return {
    list: async () =>
      (await db.select().from(spreadDefinitions).orderBy(asc(spreadDefinitions.id))).map(
        storedSpread,
      ),
    find: async (id) => {
      const [row] = await db.select().from(spreadDefinitions).where(eq(spreadDefinitions.id, id));
      return row && storedSpread(row);
    },
    create: (ownerId, fields, now, limits) =>
      db.transaction(async (tx) => {
        // Creates queue here (reads go on), so parallel creates on any instance cannot both get
        // the last place under either limit.
        await tx.execute(sql`LOCK TABLE ${spreadDefinitions} IN EXCLUSIVE MODE`);
        if ((await countOf(tx, ownerId)) >= limits.perOwner)
          return { kind: "full", limit: "owner" } as const;
        if ((await countOf(tx)) >= limits.total) return { kind: "full", limit: "total" } as const;
        const [row] = await tx
          .insert(spreadDefinitions)
          .values({
            ...fields,
            legs: legsJson(fields.legs),
            ownerId,
            createdAt: now,
            updatedAt: now,
          })
          .returning();
        if (!row) throw new Error("the insert returned no row");
        return { kind: "created", spread: storedSpread(row) } as const;
      }),
    update: async (id, fields, now) => {
      const [row] = await db
        .update(spreadDefinitions)
        .set({ ...fields, legs: legsJson(fields.legs), updatedAt: now })
        .where(eq(spreadDefinitions.id, id))
        .returning();
      return row && storedSpread(row);
    },
    delete: (id, alertSymbols) =>
      db.transaction(async (tx) => {
        const gone = await tx
          .delete(spreadDefinitions)
          .where(eq(spreadDefinitions.id, id))
          .returning({ id: spreadDefinitions.id });
        if (gone.length === 0) return { deleted: false, alertOwners: [] };
        const owners =
          alertSymbols.length === 0
            ? []
            : await tx
                .delete(alerts)
                .where(inArray(alerts.commodityType, [...alertSymbols]))
                .returning({ userId: alerts.userId });
        return { deleted: true, alertOwners: [...new Set(owners.map((o) => o.userId))] };
      }),
    countByOwner: (ownerId) => countOf(db, ownerId),
  };
}
