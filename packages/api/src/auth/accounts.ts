import { type Store, type User, UsernameTakenError } from "@spreadwatch/db";
import { hashPassword } from "./passwords.ts";

// One error for a taken name, whichever layer notices it (the store's unique index).
export { UsernameTakenError };

/** Creates a user with a hashed password; the one path used by the admin API, the CLI and start-up. */
export async function createAccount(
  store: Store,
  account: { username: string; password: string; isAdmin: boolean; alertsEnabled: boolean },
  passwordCost: number,
): Promise<User> {
  const passwordHash = await hashPassword(account.password, passwordCost);
  return store.users.create({ ...account, passwordHash });
}

/**
 * Sets a new password and ends the user's sessions (all, or all but `keepSessionId`), in one
 * transaction: whoever knew the old password is signed out.
 */
export async function changeAccountPassword(
  store: Store,
  userId: number,
  password: string,
  passwordCost: number,
  keepSessionId?: string,
): Promise<void> {
  const passwordHash = await hashPassword(password, passwordCost);
  await store.users.changePassword(userId, passwordHash, Date.now(), keepSessionId);
}
