// Which open positions position alerts watch (docs/user-guide.md "Positions (paper)"): those with a
// net ₹ target or stop, read from the store on the leader.
import type { HeldLeg } from "@spreadwatch/core";
import type { Store } from "@spreadwatch/db";

/** What the watcher needs of an open position (the store's positions carry more). */
export interface WatchedPosition {
  id: number;
  ownerId: number;
  /** The definition's symbol: GC, SP7. */
  spread: string;
  side: "BUY" | "SELL";
  /** Open lots. */
  lots: number;
  entry: number;
  /** ₹ per spread point per lot. */
  units: number;
  targetInr: number | null;
  stopInr: number | null;
  /** The contracts its legs entered on: once a leg's feed quotes another, its alerts hold. */
  legs?: Readonly<Record<string, HeldLeg>> | undefined;
}

/** Where the open positions with a target or a stop come from (the store, through the service). */
export interface PositionAlertSource {
  /** Every user's open positions with a target or a stop, or only `userId`'s. */
  listWatched(userId?: number): Promise<readonly WatchedPosition[]>;
}

/** The store's open positions, those with a target or a stop (the leader reads them on a change). */
export function storedPositionAlerts(store: Pick<Store, "positions">): PositionAlertSource {
  const watched = (p: WatchedPosition) => p.targetInr !== null || p.stopInr !== null;
  return {
    async listWatched(userId) {
      const open =
        userId === undefined
          ? await store.positions.listOpen()
          : await store.positions.list(userId, "open");
      return open.filter(watched);
    },
  };
}
