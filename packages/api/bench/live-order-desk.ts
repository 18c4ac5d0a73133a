// The set-up both live-order benches share: a test store with `traders` users, each with a Kite
// link to its own account on the fake Kite and live orders on, and a hub quoting a GOLD calendar.
import { createTestStore } from "@spreadwatch/db/testing";
import { KiteLinks } from "../src/executions/kite-link.ts";
import { LiveOrders } from "../src/executions/live-orders.ts";
import type { MarketHub } from "../src/market/hub.ts";
import type { FakeKite } from "../test/fakes/fake-kite.ts";
import type { KiteOrderBook, PlacePolicy } from "../test/fakes/fake-kite-orders.ts";

export async function liveOrderDesk(
  kite: FakeKite,
  options: { traders: number; secret: string; expiresAt: (now: number) => number },
) {
  const { store, cleanup } = createTestStore();
  const links = new KiteLinks(store, options.secret);
  const liveOrders = new LiveOrders(store);
  const now = Date.now();
  for (let i = 1; i <= options.traders; i++) {
    const user = await store.users.create({ username: `trader${i}`, passwordHash: "h" });
    const token = `tok-${i}`;
    kite.validTokens.add(token);
    kite.book.addAccount(token, `TR${i}`);
    await links.save(user.id, {
      accessToken: token,
      userId: `TR${i}`,
      savedAt: now,
      expiresAt: options.expiresAt(now),
    });
    await liveOrders.update(user.id, { enabled: true }, now);
  }
  const prices = {
    mcx: {
      GOLD: { bid: 127_000, ask: 127_010, timestamp: now },
      "GOLD@next": { bid: 127_500, ask: 127_540, timestamp: now },
    },
  };
  const hub = { snapshot: () => ({ prices }) } as unknown as MarketHub;
  return { store, cleanup, links, liveOrders, hub };
}

/** A campaign's id is the first 14 characters of its orders' tags (`sw` + 12 hex), then the role. */
const campaignOf = (tag: string) => tag.slice(0, 14);
const roleOf = (tag: string) => tag.slice(14, 15);

/**
 * The fake Kite's fate for the benches' orders: a working leg rests (the bench fills it), a
 * flatten fills, a hedge fills unless its campaign is in `rejectHedgeOf` (Kite's RMS refusing it).
 */
export function deskPolicy(rejectHedgeOf: ReadonlySet<string>): PlacePolicy {
  return (order) => {
    const tag = order.tag ?? "";
    if (roleOf(tag) === "h")
      return rejectHedgeOf.has(campaignOf(tag)) ? { reject: "Insufficient funds" } : "fill";
    if (roleOf(tag) === "f") return "fill";
    return "rest";
  };
}

/** What the fake Kite's own record says, whatever the server believes. */
export interface KiteRecord {
  /** Tags placed more than once. */
  doubled: number;
  /** Campaigns whose orders of one role (work, hedge, flatten) asked more than the fills allowed. */
  overQuantity: string[];
  /** Campaigns whose first leg's fills are neither hedged nor flattened. */
  naked: string[];
  /** Every campaign id with an order on the book. */
  campaigns: Set<string>;
}

/** `lotsOf(id)`: the working leg's quantity the campaign's ticket asked for. */
export function kiteRecord(book: KiteOrderBook, lotsOf: (id: string) => number): KiteRecord {
  const byTag = new Map<string, number>();
  const sums = new Map<string, Record<"w" | "h" | "f", { live: number; filled: number }>>();
  for (const order of book.orders.values()) {
    if (!order.tag) continue;
    byTag.set(order.tag, (byTag.get(order.tag) ?? 0) + 1);
    const id = campaignOf(order.tag);
    const role = roleOf(order.tag) as "w" | "h" | "f";
    const of = sums.get(id) ?? {
      w: { live: 0, filled: 0 },
      h: { live: 0, filled: 0 },
      f: { live: 0, filled: 0 },
    };
    sums.set(id, of);
    if (!of[role]) continue;
    // What can still fill or did: a rejected or cancelled rest counts for nothing.
    of[role].live += order.filled_quantity + order.pending_quantity;
    of[role].filled += order.filled_quantity;
  }
  const overQuantity: string[] = [];
  const naked: string[] = [];
  for (const [id, { w, h, f }] of sums) {
    // Hedges and flattens together never offset more than the first leg filled; the first leg
    // never asks more than the ticket's lots.
    if (w.live > lotsOf(id) || h.live + f.live > w.filled) overQuantity.push(id);
    if (w.filled - h.filled - f.filled > 0) naked.push(id);
  }
  return {
    doubled: [...byTag.values()].filter((n) => n > 1).length,
    overQuantity,
    naked,
    campaigns: new Set(sums.keys()),
  };
}

/**
 * The next placement's fault, drawn as both soak benches draw it: its answer lost (5 %: the
 * engine must find it by tag), else a 429 (15 % of the rest), else none. Counted in `faults`.
 */
export function placeFault(
  book: Pick<KiteOrderBook, "placeFaults">,
  random: () => number,
  faults: { lost: number; throttled: number },
): void {
  if (random() < 0.05) {
    book.placeFaults.push("lost");
    faults.lost++;
  } else if (random() < 0.15) {
    book.placeFaults.push({ status: 429, message: "Too many requests" });
    faults.throttled++;
  }
}
