import { count, eq } from "drizzle-orm";
import type { Database } from "./connection.ts";
import { users } from "./schema/index.ts";

export interface User {
  id: number;
  username: string;
  passwordHash: string;
  isAdmin: boolean;
  alertsEnabled: boolean;
  createdAt: number;
}

/** A user as lists show it: no password hash, so it cannot end up in a response by accident. */
export type UserSummary = Omit<User, "passwordHash">;

export interface NewUser {
  username: string;
  passwordHash: string;
  isAdmin?: boolean;
  alertsEnabled?: boolean;
  /** Epoch ms; defaults to now. */
  createdAt?: number;
}

/** Column names as the spec's permissions endpoint spells them. */
export type UserPermission = "alerts_enabled" | "is_admin";

const userColumns = {
  id: users.id,
  username: users.username,
  passwordHash: users.passwordHash,
  isAdmin: users.isAdmin,
  alertsEnabled: users.alertsEnabled,
  createdAt: users.createdAt,
};

const { passwordHash: _hash, ...summaryColumns } = userColumns;

function usernameKey(username: string): string {
  return username.toLowerCase();
}

/** Throws a UNIQUE violation (see `isUniqueViolation`) when the name is taken in any case. */
export function createUser(db: Database, user: NewUser): User {
  return db
    .insert(users)
    .values({
      username: user.username,
      usernameKey: usernameKey(user.username),
      passwordHash: user.passwordHash,
      isAdmin: user.isAdmin ?? false,
      alertsEnabled: user.alertsEnabled ?? false,
      createdAt: user.createdAt ?? Date.now(),
    })
    .returning(userColumns)
    .get();
}

export function findUserByUsername(db: Database, username: string): User | undefined {
  return db
    .select(userColumns)
    .from(users)
    .where(eq(users.usernameKey, usernameKey(username)))
    .get();
}

export function findUserById(db: Database, id: number): User | undefined {
  return db.select(userColumns).from(users).where(eq(users.id, id)).get();
}

export function listUsers(db: Database): UserSummary[] {
  return db.select(summaryColumns).from(users).orderBy(users.id).all();
}

/** Returns whether a user was deleted; their sessions go with them (ON DELETE CASCADE). */
export function deleteUser(db: Database, id: number): boolean {
  return db.delete(users).where(eq(users.id, id)).run().changes > 0;
}

/** Returns whether the user exists. */
export function setUserPermission(
  db: Database,
  id: number,
  permission: UserPermission,
  value: boolean,
): boolean {
  const set = permission === "is_admin" ? { isAdmin: value } : { alertsEnabled: value };
  return db.update(users).set(set).where(eq(users.id, id)).run().changes > 0;
}

/** Returns whether the user exists. Ending their sessions is the caller's decision. */
export function setPasswordHash(db: Database, id: number, passwordHash: string): boolean {
  return db.update(users).set({ passwordHash }).where(eq(users.id, id)).run().changes > 0;
}

export function countUsers(db: Database): number {
  return db.select({ n: count() }).from(users).get()?.n ?? 0;
}
