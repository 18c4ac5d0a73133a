import { randomBytes } from "node:crypto";
import type { Store } from "@spreadwatch/db";

/** A login link is good for one callback, within ten minutes, for the admin who asked for it. */
const LIFETIME_MS = 10 * 60_000;
const PREFIX = "kite.login-state.";

interface Issued {
  userId: number;
  expiresAt: number;
}

/**
 * The `state` a Kite login carries there and back, so a callback we did not start is refused.
 * In the database, not in one process's memory: behind a load balancer without sticky sessions
 * Kite's redirect may reach another instance than the one that made the link. Single use holds
 * across instances: of two callbacks with one state, only the one whose delete removed the row
 * goes on.
 */
export class KiteLoginStates {
  constructor(
    private readonly store: Pick<Store, "keyValues">,
    private readonly lifetimeMs = LIFETIME_MS,
  ) {}

  /** A new link first clears the expired ones, so links never used do not pile up. */
  async issue(userId: number, now = Date.now()): Promise<string> {
    await this.store.keyValues.deleteSetBefore(PREFIX, now - this.lifetimeMs);
    const token = randomBytes(24).toString("base64url");
    const issued: Issued = { userId, expiresAt: now + this.lifetimeMs };
    await this.store.keyValues.set(PREFIX + token, issued, now);
    return token;
  }

  /** True once for a state this user was issued and that has not expired; false ever after. */
  async consume(token: string, userId: number, now = Date.now()): Promise<boolean> {
    // Only the shape a state has is looked up: anything else cannot name another key.
    if (!/^[\w-]{32}$/.test(token)) return false;
    const issued = await this.store.keyValues.get<Issued>(PREFIX + token);
    if (!issued || !(await this.store.keyValues.delete(PREFIX + token))) return false;
    return issued.userId === userId && issued.expiresAt > now;
  }
}
