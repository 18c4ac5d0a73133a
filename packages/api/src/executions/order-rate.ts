/**
 * Kite's order limits per account (docs/user-guide.md "Live orders"): 10 orders a second, 400 a minute,
 * 5,000 a day; Kite answers 429 beyond. Each account's sends are counted here before they go: a
 * send over the second's or the minute's limit waits (queued) for its slot, with the reason; one
 * over the day's is refused with the reason, never sent. A 429 holds the account back a while.
 * The day's count also follows Kite's own orderbook (every order of the day, ours or not).
 */
export interface OrderLimits {
  perSecond: number;
  perMinute: number;
  perDay: number;
}

export const KITE_ORDER_LIMITS: OrderLimits = { perSecond: 10, perMinute: 400, perDay: 5_000 };

/** A send the day's limit refuses: nothing was sent. */
export class OrderLimitReached extends Error {
  constructor(limit: number) {
    super(
      `Kite's limit of ${limit.toLocaleString("en-IN")} orders a day for this account is reached`,
    );
    this.name = "OrderLimitReached";
  }
}

/** What one more send on an account meets now. */
export type RateVerdict =
  | { kind: "send" }
  | { kind: "wait"; ms: number; reason: string }
  | { kind: "refuse"; reason: string };

const IST_MS = 330 * 60_000;
const DAY_MS = 86_400_000;
/** Kite's order day, by the IST calendar. */
const istDay = (at: number) => Math.floor((at + IST_MS) / DAY_MS);

export class OrderRate {
  /** Each account's sends of the last minute, oldest first. */
  private readonly sent = new Map<string, number[]>();
  private readonly days = new Map<string, { day: number; count: number }>();
  private readonly heldUntil = new Map<string, number>();

  constructor(
    private readonly limits: OrderLimits = KITE_ORDER_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether one more order on `account` may go now, must wait (how long, why) or is refused. */
  check(account: string, what: "place" | "cancel" = "place"): RateVerdict {
    const now = this.now();
    const { perSecond, perMinute, perDay } = this.limits;
    // A cancel is never refused: it only takes risk off.
    if (what === "place" && this.dayCount(account, now) >= perDay)
      return { kind: "refuse", reason: new OrderLimitReached(perDay).message };
    const held = (this.heldUntil.get(account) ?? 0) - now;
    if (held > 0) return { kind: "wait", ms: held, reason: "Kite answered 429: held back" };
    const minute = (this.sent.get(account) ?? []).filter((t) => t > now - 60_000);
    this.sent.set(account, minute);
    if (minute.length >= perMinute)
      return {
        kind: "wait",
        ms: (minute[minute.length - perMinute] as number) + 60_000 - now,
        reason: `queued: Kite's ${perMinute} orders a minute for this account`,
      };
    const second = minute.filter((t) => t > now - 1_000);
    if (second.length >= perSecond)
      return {
        kind: "wait",
        ms: (second[second.length - perSecond] as number) + 1_000 - now,
        reason: `queued: Kite's ${perSecond} orders a second for this account`,
      };
    return { kind: "send" };
  }

  /**
   * Resolves when `account` may send one more request now, and counts it; `onQueued` hears each
   * wait's reason. A placement rejects with OrderLimitReached when the day's limit refuses it.
   */
  async acquire(
    account: string,
    onQueued?: (reason: string) => void,
    what: "place" | "cancel" = "place",
  ): Promise<void> {
    for (;;) {
      const verdict = this.check(account, what);
      if (verdict.kind === "refuse") throw new OrderLimitReached(this.limits.perDay);
      if (verdict.kind === "send") {
        const now = this.now();
        const minute = this.sent.get(account);
        if (minute) minute.push(now);
        else this.sent.set(account, [now]);
        if (what === "place")
          this.days.set(account, { day: istDay(now), count: this.dayCount(account, now) + 1 });
        return;
      }
      onQueued?.(verdict.reason);
      await new Promise((resolve) => setTimeout(resolve, Math.max(1, verdict.ms)));
    }
  }

  /** Kite's orderbook lists `orders` for the account today: the day's count is at least that. */
  observeBook(account: string, orders: number): void {
    const now = this.now();
    if (orders > this.dayCount(account, now))
      this.days.set(account, { day: istDay(now), count: orders });
  }

  /** Kite answered 429: nothing more on `account` for `ms`. */
  backOff(account: string, ms: number): void {
    this.heldUntil.set(account, Math.max(this.heldUntil.get(account) ?? 0, this.now() + ms));
  }

  /** Whether `account` is held back by a 429 now. */
  held(account: string): boolean {
    return (this.heldUntil.get(account) ?? 0) > this.now();
  }

  private dayCount(account: string, now: number): number {
    const day = this.days.get(account);
    return day && day.day === istDay(now) ? day.count : 0;
  }
}
