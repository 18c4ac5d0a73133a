import { count, eq } from "drizzle-orm";
import { sessionsOf, summaryColumns, userColumns } from "../store/queries.ts";
import { newUserRow, permissionChange, usernameKey } from "../store/rules.ts";
import { UsernameTakenError, type UserStore } from "../store/store.ts";
import { changed, isPgUniqueViolation, type PgDb } from "./connection.ts";
import { sessions, users } from "./schema.ts";
import { endSessionsWhere } from "./sessions.ts";

export function pgUsers(db: PgDb): UserStore {
  const byId = (id: number) => eq(users.id, id);
  const setHash = async (tx: PgDb, id: number, passwordHash: string) =>
    (await changed(tx.update(users).set({ passwordHash }).where(byId(id)))) > 0;
  return {
    async create(user) {
      try {
        const [created] = await db
          .insert(users)
          .values(newUserRow(user))
          .returning(userColumns(users));
        if (!created) throw new Error("INSERT … RETURNING returned no row");
        return created;
      } catch (error) {
        if (isPgUniqueViolation(error)) throw new UsernameTakenError(user.username);
        throw error;
      }
    },
    async findByUsername(username) {
      const byKey = eq(users.usernameKey, usernameKey(username));
      const [user] = await db.select(userColumns(users)).from(users).where(byKey);
      return user;
    },
    async findById(id) {
      const [user] = await db.select(userColumns(users)).from(users).where(byId(id));
      return user;
    },
    list: () => db.select(summaryColumns(users)).from(users).orderBy(users.id),
    async count() {
      const [row] = await db.select({ n: count() }).from(users);
      return row?.n ?? 0;
    },
    setPermission: async (id, permission, value) =>
      (await changed(db.update(users).set(permissionChange(permission, value)).where(byId(id)))) >
      0,
    setPasswordHash: (id, passwordHash) => setHash(db, id, passwordHash),
    changePassword: (id, passwordHash, now, keepSessionId) =>
      db.transaction(async (tx) => {
        if (!(await setHash(tx, id, passwordHash))) return false;
        await endSessionsWhere(
          tx,
          sessionsOf(sessions, id, keepSessionId),
          "password_changed",
          now,
        );
        return true;
      }),
    delete: (id, now) =>
      db.transaction(async (tx) => {
        await endSessionsWhere(tx, sessionsOf(sessions, id), "user_deleted", now);
        return (await changed(tx.delete(users).where(byId(id)))) > 0;
      }),
  };
}
