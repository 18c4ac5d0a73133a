import { randomBytes } from "node:crypto";

/**
 * Random tokens that are good once, for one user, for a while: the `state` a login with another
 * site carries there and back, so a callback that we did not start is refused. In memory: a
 * restart only means starting the login again.
 */
export class OneTimeTokens {
  private readonly issued = new Map<string, { userId: number; expiresAt: number }>();

  constructor(
    private readonly lifetimeMs: number,
    /** Bounds memory if someone requests login links in a loop. */
    private readonly capacity = 100,
  ) {}

  issue(userId: number, now = Date.now()): string {
    this.prune(now);
    if (this.issued.size >= this.capacity) {
      const oldest = this.issued.keys().next().value;
      if (oldest !== undefined) this.issued.delete(oldest);
    }
    const token = randomBytes(24).toString("base64url");
    this.issued.set(token, { userId, expiresAt: now + this.lifetimeMs });
    return token;
  }

  /** True once for a token this user was issued and that has not expired; false ever after. */
  consume(token: string, userId: number, now = Date.now()): boolean {
    const entry = this.issued.get(token);
    if (!entry) return false;
    this.issued.delete(token);
    return entry.userId === userId && entry.expiresAt > now;
  }

  private prune(now: number): void {
    for (const [token, entry] of this.issued) if (entry.expiresAt <= now) this.issued.delete(token);
  }
}
