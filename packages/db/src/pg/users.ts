import { and, count, eq, ne } from "drizzle-orm";
import { UsernameTakenError, type UserStore } from "../store/store.ts";
import { isPgUniqueViolation, type PgDb } from "./connection.ts";
import { sessions, users } from "./schema/index.ts";
import { endSessionsWhere } from "./sessions.ts";

const userColumns = {
  id: users.id,
  username: users.username,
  passwordHash: users.passwordHash,
  isAdmin: users.isAdmin,
  alertsEnabled: users.alertsEnabled,
  createdAt: users.createdAt,
};
const { passwordHash: _hash, ...summaryColumns } = userColumns;

export function pgUsers(db: PgDb): UserStore {
  return {
    async create(user) {
      try {
        const [created] = await db
          .insert(users)
          .values({
            username: user.username,
            usernameKey: user.username.toLowerCase(),
            passwordHash: user.passwordHash,
            isAdmin: user.isAdmin ?? false,
            alertsEnabled: user.alertsEnabled ?? false,
            createdAt: user.createdAt ?? Date.now(),
          })
          .returning(userColumns);
        if (!created) throw new Error("INSERT … RETURNING returned no row");
        return created;
      } catch (error) {
        if (isPgUniqueViolation(error)) throw new UsernameTakenError(user.username);
        throw error;
      }
    },
    async findByUsername(username) {
      const [user] = await db
        .select(userColumns)
        .from(users)
        .where(eq(users.usernameKey, username.toLowerCase()));
      return user;
    },
    async findById(id) {
      const [user] = await db.select(userColumns).from(users).where(eq(users.id, id));
      return user;
    },
    list: () => db.select(summaryColumns).from(users).orderBy(users.id),
    async count() {
      const [row] = await db.select({ n: count() }).from(users);
      return row?.n ?? 0;
    },
    async setPermission(id, permission, value) {
      const set = permission === "is_admin" ? { isAdmin: value } : { alertsEnabled: value };
      const rows = await db
        .update(users)
        .set(set)
        .where(eq(users.id, id))
        .returning({ id: users.id });
      return rows.length > 0;
    },
    async setPasswordHash(id, passwordHash) {
      const rows = await db
        .update(users)
        .set({ passwordHash })
        .where(eq(users.id, id))
        .returning({ id: users.id });
      return rows.length > 0;
    },
    changePassword: (id, passwordHash, now, keepSessionId) =>
      db.transaction(async (tx) => {
        const rows = await tx
          .update(users)
          .set({ passwordHash })
          .where(eq(users.id, id))
          .returning({ id: users.id });
        if (rows.length === 0) return false;
        const theirs = eq(sessions.userId, id);
        const where = keepSessionId ? and(theirs, ne(sessions.id, keepSessionId)) : theirs;
        await endSessionsWhere(tx, where, "password_changed", now);
        return true;
      }),
    delete: (id, now) =>
      db.transaction(async (tx) => {
        await endSessionsWhere(tx, eq(sessions.userId, id), "user_deleted", now);
        const rows = await tx.delete(users).where(eq(users.id, id)).returning({ id: users.id });
        return rows.length > 0;
      }),
  };
}
