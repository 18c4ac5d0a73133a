// The sender's lease on a real SQLite store: a send that outlasts the lease keeps its row (the
// lease is renewed while it runs), so no other sender can claim it and send it a second time;
// a row whose sender vanished comes back once the short lease runs out.
import type { OutboxMessage, Store } from "@spreadwatch/db";
import { createTestStore, queueTelegramFirings, type TestStore } from "@spreadwatch/db/testing";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type ChannelDelivery, type DeliveryOutcome, OutboxSender } from "./outbox-sender.ts";

const LEASE = { leaseMs: 300, renewEveryMs: 100 };

/** One alert firing with a Telegram row; returns the row's id. */
async function queueOne(store: Store): Promise<number> {
  const [id] = await queueTelegramFirings(store, 1);
  return id as number;
}

/** A Telegram channel whose sends hang until the test lets them go. */
class HeldDelivery implements ChannelDelivery {
  readonly channel = "telegram" as const;
  readonly started: OutboxMessage[] = [];
  private letGo: (() => void) | undefined;

  deliver(message: OutboxMessage, signal: AbortSignal): Promise<DeliveryOutcome> {
    this.started.push(message);
    return new Promise((resolve, reject) => {
      this.letGo = () => resolve({ kind: "sent" });
      signal.addEventListener("abort", () => reject(new Error("stopped")));
    });
  }

  finish(): void {
    this.letGo?.();
  }
}

let test: TestStore;
beforeEach(() => {
  test = createTestStore();
  return () => test.cleanup();
});

describe("the outbox sender's lease", () => {
  let sender: OutboxSender | undefined;
  afterEach(async () => {
    await sender?.stop(0);
  });

  it("keeps a row whose send outlasts the lease: nobody else can claim it", async () => {
    const { store } = test;
    const id = await queueOne(store);
    const delivery = new HeldDelivery();
    sender = new OutboxSender(store, delivery, "a", LEASE);
    sender.start();
    await vi.waitFor(() => expect(delivery.started.map((m) => m.id)).toEqual([id]), 5_000);

    // Three leases later the send still runs, and its row is still a's, lease in the future.
    const claimedAt = Date.now();
    await vi.waitFor(
      async () => {
        const [row] = await store.outbox.list();
        expect(row?.claimedBy).toBe("a");
        expect(row?.claimedUntil).toBeGreaterThan(claimedAt + 3 * LEASE.leaseMs);
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(
      await store.outbox.claim({ instanceId: "b", limit: 1, leaseMs: 1_000, now: Date.now() }),
    ).toEqual([]);

    delivery.finish();
    await vi.waitFor(async () => {
      const [row] = await store.outbox.list();
      expect(row).toMatchObject({ id, claimedBy: null });
      expect(row?.sentAt).not.toBeNull();
    }, 5_000);
    expect(delivery.started).toHaveLength(1);
  });

  it("gives a vanished sender's row to the next within one lease", async () => {
    const { store } = test;
    const id = await queueOne(store);
    // "dead" claimed the row and then never renewed it: its process is gone.
    await store.outbox.claim({
      instanceId: "dead",
      limit: 1,
      leaseMs: LEASE.leaseMs,
      now: Date.now(),
    });
    const delivery = new HeldDelivery();
    sender = new OutboxSender(store, delivery, "b", LEASE);
    sender.start();
    // The sender's own poll is 5 s; a wake after the lease is what a new firing would do.
    await vi.waitFor(
      () => {
        sender?.wake();
        expect(delivery.started.map((m) => m.id)).toEqual([id]);
      },
      { timeout: 5_000, interval: 100 },
    );
    delivery.finish();
  });
});
