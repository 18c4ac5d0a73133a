import { asc, desc, eq, inArray } from "drizzle-orm";
import { OPEN_EXECUTION_STATUSES } from "../store/enums.ts";
import type { ExecutionStore, StoredExecution } from "../store/store.ts";
import { changed } from "./connection.ts";
import { executions } from "./schema.ts";
import type { Sqlite } from "./store.ts";

type Row = typeof executions.$inferSelect;

const parsed = (row: Row): StoredExecution => ({ ...row, doc: JSON.parse(row.doc) });

export function sqliteExecutions({ db, run }: Sqlite): ExecutionStore {
  return {
    create: (execution) =>
      run(() => {
        db.insert(executions)
          .values({ ...execution, doc: JSON.stringify(execution.doc) })
          .run();
      }),
    get: (id) =>
      run(() => {
        const row = db.select().from(executions).where(eq(executions.id, id)).get();
        return row && parsed(row);
      }),
    save: (id, status, doc, now) =>
      run(
        () =>
          changed(
            db
              .update(executions)
              .set({ status, doc: JSON.stringify(doc), updatedAt: now })
              .where(eq(executions.id, id)),
          ) > 0,
      ),
    listOpen: () =>
      run(() =>
        db
          .select()
          .from(executions)
          .where(inArray(executions.status, [...OPEN_EXECUTION_STATUSES]))
          .orderBy(asc(executions.createdAt))
          .all()
          .map(parsed),
      ),
    listOf: (ownerId, limit) =>
      run(() =>
        db
          .select()
          .from(executions)
          .where(eq(executions.ownerId, ownerId))
          .orderBy(desc(executions.createdAt))
          .limit(limit)
          .all()
          .map(parsed),
      ),
  };
}
