import type { Quote } from "@spreadwatch/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RedisServer } from "../../test/fakes/redis-server.ts";
import type { Bus } from "./bus.ts";
import { createInProcessBus } from "./in-process.ts";
import { connectRedisBus } from "./redis.ts";

const redis = new RedisServer();
let runs = 0;

// The same cases for both buses, so the embedded default and the cluster cannot drift apart.
const BUSES: Array<[string, () => Bus | Promise<Bus>]> = [
  ["in-process", () => createInProcessBus()],
  // Each test gets its own channel prefix, so nothing left over from another test arrives.
  ["redis", () => connectRedisBus({ url: redis.url, prefix: `test${++runs}:` })],
];

beforeAll(async () => {
  await redis.start();
});
afterAll(async () => {
  await redis.dispose();
});

function quote(ts: number): Quote {
  return { source: "cme", key: "GC", bid: 2650 + ts / 100, ask: 2650.4 + ts / 100, ts };
}

describe.each(BUSES)("%s bus", (_name, make) => {
  const open: Bus[] = [];
  async function bus(): Promise<Bus> {
    const made = await make();
    open.push(made);
    return made;
  }
  afterEach(async () => {
    await Promise.all(open.splice(0).map((b) => b.close()));
  });

  it("is connected once made", async () => {
    expect((await bus()).state()).toBe("connected");
  });

  it("delivers each topic's messages to that topic's subscribers, unchanged", async () => {
    const b = await bus();
    const seen: unknown[] = [];
    b.subscribe("quote", (m) => seen.push(["quote", m]));
    b.subscribe("alerts.changed", (m) => seen.push(["alerts.changed", m]));
    b.subscribe("sessions.changed", (m) => seen.push(["sessions.changed", m]));
    const q: Quote = { source: "fx", key: "USDINR", price: 84.12, ts: 1, delayed: true };
    b.publish("quote", q);
    b.publish("alerts.changed", { userId: 7 });
    b.publish("sessions.changed", { userId: 8 });
    await expect.poll(() => seen.length).toBe(3);
    expect(seen).toEqual([
      ["quote", q],
      ["alerts.changed", { userId: 7 }],
      ["sessions.changed", { userId: 8 }],
    ]);
  });

  it("keeps the publishing order of a burst of quotes", async () => {
    const b = await bus();
    const seen: number[] = [];
    b.subscribe("quote", (m) => seen.push(m.ts));
    const sent = Array.from({ length: 500 }, (_, i) => i + 1);
    for (const ts of sent) b.publish("quote", quote(ts));
    await expect.poll(() => seen.length).toBe(sent.length);
    expect(seen).toEqual(sent);
  });

  it("gives a subscriber only its own topic", async () => {
    const b = await bus();
    const alerts: unknown[] = [];
    const quotes: unknown[] = [];
    b.subscribe("alerts.changed", (m) => alerts.push(m));
    b.subscribe("quote", (m) => quotes.push(m));
    b.publish("quote", quote(1));
    b.publish("alerts.changed", { userId: 1 });
    b.publish("quote", quote(2));
    await expect.poll(() => quotes.length).toBe(2);
    await expect.poll(() => alerts.length).toBe(1);
    expect(alerts).toEqual([{ userId: 1 }]);
  });

  it("stops delivering to a subscriber that unsubscribed", async () => {
    const b = await bus();
    const left: number[] = [];
    const stayed: number[] = [];
    const unsubscribe = b.subscribe("quote", (m) => left.push(m.ts));
    b.subscribe("quote", (m) => stayed.push(m.ts));
    b.publish("quote", quote(1));
    await expect.poll(() => left).toEqual([1]);
    unsubscribe();
    b.publish("quote", quote(2));
    // Both handlers get a message in the same delivery, so once one has it the other would too.
    await expect.poll(() => stayed).toEqual([1, 2]);
    expect(left).toEqual([1]);
  });

  it("keeps delivering when a subscriber throws", async () => {
    const b = await bus();
    const seen: number[] = [];
    b.subscribe("quote", () => {
      throw new Error("a broken subscriber");
    });
    b.subscribe("quote", (m) => seen.push(m.ts));
    b.publish("quote", quote(1));
    b.publish("quote", quote(2));
    await expect.poll(() => seen).toEqual([1, 2]);
  });

  it("keeps the order when a subscriber publishes while handling a message", async () => {
    const b = await bus();
    b.subscribe("quote", (m) => {
      if (m.ts === 1) b.publish("quote", quote(2));
    });
    const seen: number[] = [];
    b.subscribe("quote", (m) => seen.push(m.ts));
    b.publish("quote", quote(1));
    await expect.poll(() => seen.length).toBe(2);
    expect(seen).toEqual([1, 2]);
  });

  it("is down after close, and publishing then neither throws nor delivers", async () => {
    const b = await bus();
    const states: string[] = [];
    b.onState((s) => states.push(s));
    const seen: unknown[] = [];
    b.subscribe("quote", (m) => seen.push(m));
    await b.close();
    expect(b.state()).toBe("down");
    expect(states).toEqual(["down"]);
    expect(() => b.publish("quote", quote(1))).not.toThrow();
    expect(seen).toEqual([]);
    await b.close();
  });
});
