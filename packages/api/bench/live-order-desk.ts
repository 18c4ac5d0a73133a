// The set-up both live-order benches share: a test store with `traders` users, each with a Kite
// link to its own account on the fake Kite and live orders on, and a hub quoting a GOLD calendar.
import { createTestStore } from "@spreadwatch/db/testing";
import { KiteLinks } from "../src/executions/kite-link.ts";
import { LiveOrders } from "../src/executions/live-orders.ts";
import type { MarketHub } from "../src/market/hub.ts";
import type { FakeKite } from "../test/fakes/fake-kite.ts";

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
