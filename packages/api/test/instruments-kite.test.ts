// The instrument catalogue's whole path through a real server (docs/user-guide.md "Instruments"):
// an admin adds ZINC and GOLD@next over HTTP; the Kite provider, against the fake Kite on loopback,
// subscribes them on its open socket; their ticks reach /api/prices with contract names; with
// the provider's clock moved across GOLD's roll day (by the IST calendar), near and next roll,
// /api/rolls records both, and removing an instrument an alert uses is refused.
import { type Quote, shippedInstrument } from "@spreadwatch/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { FeedSources } from "../src/feeds/index.ts";
import { createCompositeFeed } from "../src/feeds/providers/composite.ts";
import { createKiteProvider } from "../src/feeds/providers/kite/kite.ts";
import { kiteSessionsIn } from "../src/feeds/providers/kite/session.ts";
import { instrumentsCsv as csv, FakeKite, mcxFuture } from "./fakes/fake-kite.ts";
import { bookTick, frame, GOLD_APR, GOLD_FEB, GOLD_JUN, ZINC_JAN } from "./fakes/kite-packets.ts";
import { signIn } from "./fakes/signed-in-trader.ts";
import type { HttpClient } from "./http-client.ts";
import { ADMIN, startTestServer, type TestServer } from "./server.ts";

/** How long a live change may take to show: generous on a shared machine; nothing is timed. */
const DEADLINE = { timeout: 10_000, interval: 20 };

describe("instruments through a real server and the Kite provider", () => {
  let kite: FakeKite;
  let server: TestServer;
  let admin: HttpClient;
  /** The clock the provider picks contracts by: the test moves it across a roll day. */
  let day: number;

  beforeEach(async () => {
    kite = await new FakeKite().start();
    kite.instruments.set(
      "MCX",
      csv([
        mcxFuture(GOLD_FEB, "GOLD26FEBFUT", "GOLD", "2026-02-05"),
        mcxFuture(GOLD_APR, "GOLD26APRFUT", "GOLD", "2026-04-03"),
        mcxFuture(GOLD_JUN, "GOLD26JUNFUT", "GOLD", "2026-06-05"),
        mcxFuture(ZINC_JAN, "ZINC26JANFUT", "ZINC", "2026-01-30"),
      ]),
    );
    kite.validTokens.add("token-1");
    day = Date.parse("2026-01-20T06:00:00Z");
    // The composite feed of a config with one Kite provider serving GOLD (and, by exchange,
    // every MCX instrument an admin adds), reading the day's token from the server's store.
    const feed = (sources: FeedSources) =>
      createCompositeFeed([
        {
          kind: "kite",
          keys: ["GOLD"],
          provider: createKiteProvider({
            name: "kite",
            keys: ["GOLD"],
            settings: kite.settings(),
            sessions: sources.kiteSessions,
            rollDaysBeforeExpiry: 3,
            silenceMs: 60_000,
            hours: "always",
            refreshMs: 30,
            tokenCheckMs: 30,
            staleAfterMs: 60_000,
            timeoutMs: 2_000,
            backoff: { initialMs: 20, maxMs: 100 },
            log: () => {},
            dateNow: () => day,
          }),
        },
      ]);
    server = await startTestServer({ feed });
    const now = Date.now();
    await kiteSessionsIn(server.services.store).save({
      accessToken: "token-1",
      userId: "AB1234",
      savedAt: now,
      expiresAt: now + 3_600_000,
    });
    admin = await signIn(server, ADMIN.username, ADMIN.password);
  });

  afterEach(async () => {
    await server?.stop();
    await kite.stop();
  });

  const prices = async () => (await admin.get("/api/prices")).body;

  it("adds ZINC and GOLD@next live, rolls them on the right IST day and records the rolls", async () => {
    await kite.until(() => (kite.latest?.messages.length ?? 0) >= 2, "GOLD's subscription");
    expect(kite.latest?.messages[0]).toEqual({ a: "subscribe", v: [GOLD_FEB] });

    expect((await admin.post("/api/instruments", { key: "ZINC" })).status).toBe(201);
    expect((await admin.post("/api/instruments", { key: "GOLD@next" })).status).toBe(201);
    // Subscribed on the same socket, one at a time as each was added.
    await kite.until(() => (kite.latest?.messages.length ?? 0) >= 6, "the new subscriptions");
    expect(kite.connections).toHaveLength(1);
    expect(kite.latest?.messages.slice(2)).toEqual([
      { a: "subscribe", v: [ZINC_JAN] },
      { a: "mode", v: ["full", [ZINC_JAN]] },
      { a: "subscribe", v: [GOLD_APR] },
      { a: "mode", v: ["full", [GOLD_APR]] },
    ]);

    kite.send(
      frame(bookTick(GOLD_FEB, 76_500), bookTick(GOLD_APR, 77_200), bookTick(ZINC_JAN, 300)),
    );
    await vi.waitFor(async () => {
      const body = await prices();
      expect(body.mcx.ZINC).toMatchObject({ bid: 299.95, ask: 300.05, contract: "ZINC26JANFUT" });
      expect(body.mcx["GOLD@next"]).toMatchObject({ bid: 77_199.95, contract: "GOLD26APRFUT" });
      expect(body.mcx.GOLD).toMatchObject({ contract: "GOLD26FEBFUT" });
    }, DEADLINE);
    const listed = (await admin.get("/api/instruments")).body.instruments;
    expect(listed.find((i: { key: string }) => i.key === "GOLD@next")).toMatchObject({
      contract: "GOLD26APRFUT",
      expiry: "2026-04-03",
      provider: "kite",
      month: "next",
      lotUnits: shippedInstrument("GOLD@next")?.lotUnits,
    });

    // 00:01 IST on 2 February (still 1 February in UTC): GOLD26FEBFUT enters its 3-day roll window.
    day = Date.parse("2026-02-01T18:31:00Z");
    await kite.until(
      () => kite.latest?.messages.some((m) => m.a === "unsubscribe") ?? false,
      "the roll",
    );
    kite.send(frame(bookTick(GOLD_APR, 77_210), bookTick(GOLD_JUN, 77_900)));
    await vi.waitFor(async () => {
      const body = await prices();
      expect(body.mcx.GOLD).toMatchObject({ bid: 77_209.95, contract: "GOLD26APRFUT" });
      expect(body.mcx["GOLD@next"]).toMatchObject({ contract: "GOLD26JUNFUT" });
    }, DEADLINE);
    const rolls = async (key: string) =>
      (await admin.get(`/api/rolls?key=${encodeURIComponent(key)}&from=0&to=${Date.now() + 1}`))
        .body.rolls as Array<{ key: string; from: string; to: string; at: number }>;
    await vi.waitFor(async () => {
      expect(await rolls("GOLD")).toEqual([
        expect.objectContaining({ key: "GOLD", from: "GOLD26FEBFUT", to: "GOLD26APRFUT" }),
      ]);
      expect(await rolls("GOLD@next")).toEqual([
        expect.objectContaining({ key: "GOLD@next", from: "GOLD26APRFUT", to: "GOLD26JUNFUT" }),
      ]);
    }, DEADLINE);
    expect(await rolls("ZINC")).toEqual([]);
  });

  it("refuses to remove an instrument an alert uses, and removes one nobody uses", async () => {
    await admin.post("/api/alerts", {
      commodityType: "GC_BUY",
      threshold: 500,
      enabled: true,
    });
    const refused = await admin.delete("/api/instruments/GOLD");
    expect(refused.status).toBe(409);
    expect(refused.body.usedBy.alerts).toBe(1);
    expect(refused.body.error).toMatch(/GOLD is used by/);
    expect((await admin.post("/api/instruments", { key: "ZINC" })).status).toBe(201);
    expect((await admin.delete("/api/instruments/ZINC")).status).toBe(204);
    const keys = (await admin.get("/api/instruments")).body.instruments.map((i: Quote) => i.key);
    expect(keys).not.toContain("ZINC");
  });
});
