import { count, eq } from "drizzle-orm";
import { sessionsOf, summaryColumns, userColumns } from "../store/queries.ts";
import { newUserRow, permissionChange, usernameKey } from "../store/rules.ts";
import { UsernameTakenError, type UserStore } from "../store/store.ts";
import { changed, isUniqueViolation } from "./connection.ts";
import { sessions, users } from "./schema.ts";
import { endSessionsWhere } from "./sessions.ts";
import type { Sqlite } from "./store.ts";

export function sqliteUsers({ db, run }: Sqlite): UserStore {
  const byId = (id: number) => eq(users.id, id);
  const setHash = (id: number, passwordHash: string) =>
    changed(db.update(users).set({ passwordHash }).where(byId(id))) > 0;
  return {
    create: (user) =>
      run(() => {
        try {
          return db.insert(users).values(newUserRow(user)).returning(userColumns(users)).get();
        } catch (error) {
          if (isUniqueViolation(error)) throw new UsernameTakenError(user.username);
          throw error;
        }
      }),
    findByUsername: (username) =>
      run(() =>
        db
          .select(userColumns(users))
          .from(users)
          .where(eq(users.usernameKey, usernameKey(username)))
          .get(),
      ),
    findById: (id) => run(() => db.select(userColumns(users)).from(users).where(byId(id)).get()),
    list: () => run(() => db.select(summaryColumns(users)).from(users).orderBy(users.id).all()),
    count: () => run(() => db.select({ n: count() }).from(users).get()?.n ?? 0),
    setPermission: (id, permission, value) =>
      run(
        () =>
          changed(db.update(users).set(permissionChange(permission, value)).where(byId(id))) > 0,
      ),
    setPasswordHash: (id, passwordHash) => run(() => setHash(id, passwordHash)),
    changePassword: (id, passwordHash, now, keepSessionId) =>
      run(() =>
        db.transaction(() => {
          if (!setHash(id, passwordHash)) return false;
          endSessionsWhere(db, sessionsOf(sessions, id, keepSessionId), "password_changed", now);
          return true;
        }),
      ),
    delete: (id, now) =>
      run(() =>
        db.transaction(() => {
          endSessionsWhere(db, sessionsOf(sessions, id), "user_deleted", now);
          return changed(db.delete(users).where(byId(id))) > 0;
        }),
      ),
  };
}
