/**
 * Kite's order limit per account (10 orders a second; 429 beyond, docs/pending/orders.md): each
 * account's sends wait for a slot in a one-second window, and a 429 holds the account back
 * for a while before anything else is sent on it.
 */
export class OrderRate {
  private readonly sent = new Map<string, number[]>();
  private readonly heldUntil = new Map<string, number>();

  constructor(
    private readonly perSecond = 10,
    private readonly now: () => number = Date.now,
  ) {}

  /** Resolves when `account` may send one more order now (and counts it). */
  async acquire(account: string): Promise<void> {
    for (;;) {
      const now = this.now();
      const held = (this.heldUntil.get(account) ?? 0) - now;
      const window = (this.sent.get(account) ?? []).filter((t) => t > now - 1000);
      this.sent.set(account, window);
      const wait =
        held > 0 ? held : window.length >= this.perSecond ? (window[0] as number) + 1000 - now : 0;
      if (wait <= 0) {
        window.push(now);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** Kite answered 429: nothing more on `account` for `ms`. */
  backOff(account: string, ms: number): void {
    this.heldUntil.set(account, Math.max(this.heldUntil.get(account) ?? 0, this.now() + ms));
  }

  /** Whether `account` is held back by a 429 now. */
  held(account: string): boolean {
    return (this.heldUntil.get(account) ?? 0) > this.now();
  }
}
