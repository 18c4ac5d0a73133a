// The leader's execution engine with no campaign open (docs/decisions.md, "Live orders"): it
// looks for one every EXECUTION_IDLE_POLL_MS, not every EXECUTION_POLL_MS, and a wake (a
// campaign made here, or "executions.changed" from the bus) makes it look at once. Vitest's fake
// timers drive the engine's waits, so the count of looks is exact on any machine.
import { createTestStore } from "@spreadwatch/db/testing";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  EXECUTION_IDLE_POLL_MS,
  EXECUTION_POLL_MS,
  ExecutionEngine,
} from "../src/executions/engine.ts";
import { KiteLinks } from "../src/executions/kite-link.ts";
import { LiveOrders } from "../src/executions/live-orders.ts";
import { OrderRate } from "../src/executions/order-rate.ts";
import type { MarketHub } from "../src/market/hub.ts";

let engine: ExecutionEngine;
let cleanup: () => Promise<void> | void;
let looks = 0;

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  const test = createTestStore();
  cleanup = test.cleanup;
  const { store } = test;
  const listOpen = store.executions.listOpen.bind(store.executions);
  looks = 0;
  store.executions.listOpen = () => {
    looks++;
    return listOpen();
  };
  engine = new ExecutionEngine({
    store,
    hub: { snapshot: () => ({ prices: {} }) } as unknown as MarketHub,
    // No Kite in reach: with nothing open, nothing is sent or watched.
    kite: {
      apiKey: "k",
      apiSecret: "s",
      apiRoot: "http://127.0.0.1:9",
      wsRoot: "ws://127.0.0.1:9",
      loginUrl: "http://127.0.0.1:9/connect/login",
    },
    links: new KiteLinks(store, "test-secret-test-secret-test-secret"),
    liveOrders: new LiveOrders(store),
    rate: new OrderRate(),
  });
  await engine.start();
});

afterEach(async () => {
  await engine.stop();
  vi.useRealTimers();
  await cleanup();
});

/** Lets the engine's loop run what is due now (its store calls are promises). */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe("an execution engine with no campaign open", () => {
  it("looks once on start, then once a second rather than ten times", async () => {
    await settle();
    expect(looks).toBe(1);
    await vi.advanceTimersByTimeAsync(EXECUTION_IDLE_POLL_MS - EXECUTION_POLL_MS);
    expect(looks).toBe(1);
    await vi.advanceTimersByTimeAsync(EXECUTION_POLL_MS);
    expect(looks).toBe(2);
    await vi.advanceTimersByTimeAsync(3 * EXECUTION_IDLE_POLL_MS);
    expect(looks).toBe(5);
  });

  it("looks at once when woken, without waiting out the idle poll", async () => {
    await settle();
    const before = looks;
    engine.wake();
    await settle();
    expect(looks).toBe(before + 1);
  });
});
