import type { Quote } from "@spreadwatch/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { freePort, RedisServer } from "../../test/fakes/redis-server.ts";
import type { Bus, BusState } from "./bus.ts";
import { connectRedisBus } from "./redis.ts";

function quote(ts: number, key = "GC"): Quote {
  return { source: "cme", key, bid: 2650, ask: 2650.4, ts };
}

describe("Redis bus between instances", () => {
  let redis: RedisServer;
  const open: Bus[] = [];
  async function bus(options: { downAfterMs?: number } = {}): Promise<Bus> {
    const made = await connectRedisBus({ url: redis.url, ...options });
    open.push(made);
    return made;
  }
  beforeEach(async () => {
    redis = await new RedisServer().start();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((b) => b.close()));
    await redis.dispose();
  });

  it("lets two instances see each other's messages, each publisher's in its order", async () => {
    const [a, b] = [await bus(), await bus()];
    const seenOnA: Quote[] = [];
    const seenOnB: Quote[] = [];
    a.subscribe("quote", (m) => seenOnA.push(m));
    b.subscribe("quote", (m) => seenOnB.push(m));
    const alertsOnA: unknown[] = [];
    a.subscribe("alerts.changed", (m) => alertsOnA.push(m));
    for (let ts = 1; ts <= 200; ts++) {
      a.publish("quote", quote(ts, "GC"));
      b.publish("quote", quote(ts, "SI"));
    }
    b.publish("alerts.changed", { userId: 42 });
    for (const seen of [seenOnA, seenOnB]) {
      await expect.poll(() => seen.length).toBe(400);
      for (const key of ["GC", "SI"]) {
        const order = seen.filter((q) => q.key === key).map((q) => q.ts);
        expect(order).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
      }
    }
    await expect.poll(() => alertsOnA).toEqual([{ userId: 42 }]);
  });

  it("delivers what was published in one turn in one turn, so a feed's step reaches every hub whole", async () => {
    const [leader, other] = [await bus(), await bus()];
    // The subscriber's turns: the quotes each one delivered before a microtask could run (the
    // stream sends a hub's changes in a microtask after them).
    const turns: number[][] = [];
    let turn: number[] | undefined;
    other.subscribe("quote", (m) => {
      if (!turn) {
        const current: number[] = [];
        turn = current;
        queueMicrotask(() => {
          turns.push(current);
          turn = undefined;
        });
      }
      turn.push(m.ts);
    });
    // Two steps of a feed, far larger than one socket read (64 KB), a turn of the loop apart.
    const step = (from: number) => {
      for (let ts = from; ts < from + 2_000; ts++) leader.publish("quote", quote(ts));
    };
    step(0);
    await new Promise((resolve) => setImmediate(resolve));
    step(2_000);
    await expect.poll(() => turns.flat().length, { timeout: 10_000 }).toBe(4_000);
    expect(turns.map((ts) => [ts[0], ts.length])).toEqual([
      [0, 2_000],
      [2_000, 2_000],
    ]);
  });

  it("reports an outage and resumes delivery when Redis is back on the same port", async () => {
    const publisher = await bus({ downAfterMs: 300 });
    const receiver = await bus({ downAfterMs: 300 });
    const states: BusState[] = [];
    receiver.onState((s) => states.push(s));
    const seen: number[] = [];
    receiver.subscribe("quote", (m) => seen.push(m.ts));

    await redis.kill();
    await expect.poll(() => receiver.state(), { timeout: 10_000 }).toBe("down");
    expect(states).toEqual(["reconnecting", "down"]);
    expect(publisher.state()).not.toBe("connected");

    await redis.start(redis.port);
    await expect.poll(() => receiver.state(), { timeout: 15_000 }).toBe("connected");
    await expect.poll(() => publisher.state(), { timeout: 15_000 }).toBe("connected");
    // Messages published while away may be lost (the bus is at most once); new ones arrive.
    let ts = 0;
    await expect
      .poll(
        () => {
          publisher.publish("quote", quote(++ts));
          return seen.length;
        },
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0);
    expect(states).toEqual(["reconnecting", "down", "connected"]);
  });

  it("refuses to start when Redis is unreachable, naming where it looked", async () => {
    const port = await freePort();
    await expect(
      connectRedisBus({ url: `redis://:secret@127.0.0.1:${port}`, connectTimeoutMs: 2_000 }),
    ).rejects.toThrow(`Redis at redis://:***@127.0.0.1:${port}`);
  });

  it("keeps deployments with different prefixes apart", async () => {
    const ours = await bus();
    const theirs = await connectRedisBus({ url: redis.url, prefix: "other:" });
    open.push(theirs);
    const seenByTheirs: number[] = [];
    const seenByOurs: number[] = [];
    theirs.subscribe("quote", (m) => seenByTheirs.push(m.ts));
    ours.subscribe("quote", (m) => seenByOurs.push(m.ts));
    ours.publish("quote", quote(1));
    theirs.publish("quote", quote(2));
    await expect.poll(() => seenByTheirs).toEqual([2]);
    await expect.poll(() => seenByOurs).toEqual([1]);
    // Redis had fanned out both before these; a leak would arrive ahead of them.
    ours.publish("quote", quote(3));
    theirs.publish("quote", quote(4));
    await expect.poll(() => seenByOurs.at(-1)).toBe(3);
    await expect.poll(() => seenByTheirs.at(-1)).toBe(4);
    expect(seenByOurs).toEqual([1, 3]);
    expect(seenByTheirs).toEqual([2, 4]);
  });
});
