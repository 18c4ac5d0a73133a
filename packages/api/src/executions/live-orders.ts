import type { Store } from "@spreadwatch/db";

/**
 * Who may send live orders (docs/user-guide.md "Live orders"): an admin's switch for everyone (the kill
 * switch, on until switched off) and, per trader, an admin's enable (off by default) with a cap
 * on lots, and the trader's own maximum (at most the cap).
 */
export const DEFAULT_LOTS_CAP = 10;

export interface TraderLiveOrders {
  enabled: boolean;
  capLots: number;
  /** The trader's own maximum per ticket; null: the cap. */
  ownMaxLots: number | null;
}

const GLOBAL_KEY = "live-orders.enabled";
const userKey = (userId: number) => `live-orders.user.${userId}`;

export class LiveOrders {
  constructor(private readonly store: Pick<Store, "keyValues">) {}

  async enabled(): Promise<boolean> {
    return (await this.store.keyValues.get<boolean>(GLOBAL_KEY)) ?? true;
  }

  async setEnabled(enabled: boolean, now: number): Promise<void> {
    await this.store.keyValues.set(GLOBAL_KEY, enabled, now);
  }

  async of(userId: number): Promise<TraderLiveOrders> {
    const stored = await this.store.keyValues.get<Partial<TraderLiveOrders>>(userKey(userId));
    return {
      enabled: stored?.enabled ?? false,
      capLots: stored?.capLots ?? DEFAULT_LOTS_CAP,
      ownMaxLots: stored?.ownMaxLots ?? null,
    };
  }

  async update(userId: number, patch: Partial<TraderLiveOrders>, now: number) {
    const next = { ...(await this.of(userId)), ...patch };
    await this.store.keyValues.set(userKey(userId), next, now);
    return next;
  }

  /** The most lots a ticket of this trader may carry. */
  static maxLots(trader: TraderLiveOrders): number {
    return Math.min(trader.capLots, trader.ownMaxLots ?? trader.capLots);
  }
}
