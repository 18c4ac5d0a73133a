import {
  createUser,
  type Database,
  deleteUserSessions,
  isUniqueViolation,
  setPasswordHash,
  type User,
} from "@spreadwatch/db";
import { hashPassword } from "./passwords.ts";

export class UsernameTakenError extends Error {
  constructor(username: string) {
    super(`Username "${username}" already exists`);
  }
}

/** Creates a user with a hashed password; the one path used by the admin API, the CLI and start-up. */
export async function createAccount(
  db: Database,
  account: { username: string; password: string; isAdmin: boolean; alertsEnabled: boolean },
): Promise<User> {
  const passwordHash = await hashPassword(account.password);
  try {
    return createUser(db, { ...account, passwordHash });
  } catch (error) {
    if (isUniqueViolation(error)) throw new UsernameTakenError(account.username);
    throw error;
  }
}

/**
 * Sets a new password and ends the user's sessions (all, or all but `keepSessionId`): whoever
 * knew the old password is signed out.
 */
export async function changeAccountPassword(
  db: Database,
  userId: number,
  password: string,
  keepSessionId?: string,
): Promise<void> {
  setPasswordHash(db, userId, await hashPassword(password));
  deleteUserSessions(db, userId, "password_changed", Date.now(), keepSessionId);
}
