import type { Store } from "@spreadwatch/db";
import { createAccount } from "./accounts.ts";
import { randomPassword } from "./passwords.ts";

export const DEFAULT_ADMIN_USERNAME = "admin";

/** Frames lines in a box so a one-time password stands out in a busy log. */
export function boxed(lines: readonly string[]): string {
  const width = Math.max(...lines.map((l) => l.length));
  const bar = "─".repeat(width + 2);
  return [`┌${bar}┐`, ...lines.map((l) => `│ ${l.padEnd(width)} │`), `└${bar}┘`].join("\n");
}

/**
 * With an empty users table, creates the first admin so a fresh install can be signed into.
 * A generated password is printed once; it is not stored anywhere else in clear.
 */
export async function ensureFirstAdmin(
  store: Store,
  settings: { username: string | undefined; password: string | undefined; passwordCost: number },
  log: (text: string) => void,
): Promise<void> {
  if ((await store.users.count()) > 0) return;
  const username = settings.username ?? DEFAULT_ADMIN_USERNAME;
  const password = settings.password ?? randomPassword();
  await createAccount(
    store,
    { username, password, isAdmin: true, alertsEnabled: true },
    settings.passwordCost,
  );
  if (settings.password) {
    log(`Created the first admin "${username}" with the password from ADMIN_PASSWORD.`);
    return;
  }
  log(
    boxed([
      "First admin created — this password is shown only once:",
      `  username: ${username}`,
      `  password: ${password}`,
      "Sign in and change it on the Profile page.",
    ]),
  );
}
