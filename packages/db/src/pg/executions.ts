import { asc, desc, eq, inArray } from "drizzle-orm";
import { OPEN_EXECUTION_STATUSES } from "../store/enums.ts";
import type { ExecutionStore, StoredExecution } from "../store/store.ts";
import { changed, type PgDb } from "./connection.ts";
import { executions } from "./schema.ts";

type Row = typeof executions.$inferSelect;

const parsed = (row: Row): StoredExecution => ({ ...row, doc: JSON.parse(row.doc) });

export function pgExecutions(db: PgDb): ExecutionStore {
  return {
    async create(execution) {
      await db.insert(executions).values({ ...execution, doc: JSON.stringify(execution.doc) });
    },
    async get(id) {
      const [row] = await db.select().from(executions).where(eq(executions.id, id));
      return row && parsed(row);
    },
    save: async (id, status, doc, now) =>
      (await changed(
        db
          .update(executions)
          .set({ status, doc: JSON.stringify(doc), updatedAt: now })
          .where(eq(executions.id, id)),
      )) > 0,
    listOpen: async () =>
      (
        await db
          .select()
          .from(executions)
          .where(inArray(executions.status, [...OPEN_EXECUTION_STATUSES]))
          .orderBy(asc(executions.createdAt))
      ).map(parsed),
    listOf: async (ownerId, limit) =>
      (
        await db
          .select()
          .from(executions)
          .where(eq(executions.ownerId, ownerId))
          .orderBy(desc(executions.createdAt))
          .limit(limit)
      ).map(parsed),
  };
}
