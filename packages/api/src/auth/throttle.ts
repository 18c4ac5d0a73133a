export const LOGIN_FAILURE_LIMIT = 5;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** Bounds memory under a flood of distinct usernames or addresses. */
const MAX_KEYS = 50_000;

/**
 * Counts failed logins per username and per address over a sliding window. After the limit,
 * attempts are refused until the oldest failure in the window has aged out.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limit = LOGIN_FAILURE_LIMIT,
    private readonly windowMs = LOGIN_WINDOW_MS,
  ) {}

  /** Milliseconds until another attempt is allowed, or 0 when allowed now. */
  retryAfter(keys: readonly string[], now: number): number {
    let wait = 0;
    for (const key of keys) {
      const recent = this.recent(key, now);
      if (recent.length >= this.limit) {
        const oldest = recent[recent.length - this.limit] as number;
        wait = Math.max(wait, oldest + this.windowMs - now);
      }
    }
    return wait;
  }

  recordFailure(keys: readonly string[], now: number): void {
    if (this.failures.size >= MAX_KEYS) this.sweep(now);
    for (const key of keys) this.failures.set(key, [...this.recent(key, now), now]);
  }

  reset(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string, now: number): number[] {
    return (this.failures.get(key) ?? []).filter((t) => t > now - this.windowMs);
  }

  private sweep(now: number): void {
    for (const key of this.failures.keys()) {
      if (this.recent(key, now).length === 0) this.failures.delete(key);
    }
    // Still full of live keys: forget the oldest rather than grow without bound.
    for (const key of this.failures.keys()) {
      if (this.failures.size < MAX_KEYS) break;
      this.failures.delete(key);
    }
  }
}

export function throttleKeys(username: string, address: string | undefined): string[] {
  const keys = [`user:${username.toLowerCase()}`];
  if (address) keys.push(`ip:${address}`);
  return keys;
}
