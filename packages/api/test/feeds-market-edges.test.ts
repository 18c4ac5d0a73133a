import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SESSION_FILE } from "../src/feeds/providers/kite/session.ts";
import { FakeHttp } from "./fakes/fake-http.ts";
import {
  instrumentsCsv as csv,
  FakeKite,
  KITE_KEY,
  KITE_SECRET,
  instrumentRow as row,
} from "./fakes/fake-kite.ts";
import { type DepthLevel, frame, fullPacket } from "./fakes/kite-packets.ts";
import { eventually } from "./fakes/wait.ts";
import { HttpClient } from "./http-client.ts";
import { startTestServer, type TestServer } from "./server.ts";

// The real server on loopback, fed by a fake Kite (MCX CRUDEOIL, USDINR) and a broker endpoint
// for NYMEX CL: what a trading day's edge cases look like in /api/prices and /api/calculations.
const CRUDEOIL = (300 << 8) | 7;
const USDINR_JAN = (200 << 8) | 3;
const USDINR_WEEKLY = (201 << 8) | 3;

let kite: FakeKite;
let broker: FakeHttp;
let server: TestServer | undefined;
let dir: string;
let client: HttpClient;

const level = (price: number, qty = 5): DepthLevel => ({ qty, price, orders: 1 });

/** One full-mode CRUDEOIL packet (paise) and USDINR at 88.50, as Kite would send them. */
function sendBook(bids: DepthLevel[], asks: DepthLevel[], last = 7_214_000) {
  const exchangeTime = Math.floor(Date.now() / 1000);
  kite.send(
    frame(
      fullPacket(CRUDEOIL, { last, exchangeTime, bids, asks }),
      fullPacket(USDINR_JAN, {
        last: 885_000_000,
        exchangeTime,
        bids: [level(884_975_000)],
        asks: [level(885_025_000)],
      }),
    ),
  );
}

const prices = () => client.get("/api/prices").then((r) => r.body);
const calculations = () => client.get("/api/calculations").then((r) => r.body);

// A server (and fake Kite) per test: each test sends its own order book for the same contract, and
// the prices the server last took from the previous test's book would stand in this one's.
beforeEach(async () => {
  kite = await new FakeKite().start();
  broker = await new FakeHttp().start();
  broker.route("/cl", () => ({ json: { bid: 81.5, ask: 81.52 } }));
  dir = mkdtempSync(join(tmpdir(), "spreadwatch-edges-"));
  kite.instruments.set(
    "MCX",
    csv([
      row({
        token: CRUDEOIL,
        tradingsymbol: "CRUDEOIL26FEBFUT",
        name: "CRUDEOIL",
        expiry: "2099-02-19",
        segment: "MCX-FUT",
        exchange: "MCX",
      }),
    ]),
  );
  // A weekly USDINR future expiring first, then the monthly of the same month.
  kite.instruments.set(
    "CDS",
    csv([
      row({
        token: USDINR_WEEKLY,
        tradingsymbol: "USDINR99J09FUT",
        name: "USDINR",
        expiry: "2099-01-09",
        segment: "CDS-FUT",
        exchange: "CDS",
      }),
      row({
        token: USDINR_JAN,
        tradingsymbol: "USDINR99JANFUT",
        name: "USDINR",
        expiry: "2099-01-28",
        segment: "CDS-FUT",
        exchange: "CDS",
      }),
    ]),
  );
  const dataDir = join(dir, "data");
  const now = Date.now();
  // The file of releases before the token moved to the database: imported at the start.
  mkdirSync(dataDir, { recursive: true });
  const session = {
    accessToken: "token-1",
    userId: "AB1234",
    savedAt: now,
    expiresAt: now + 3_600_000,
  };
  writeFileSync(join(dataDir, SESSION_FILE), JSON.stringify(session));
  kite.validTokens.add("token-1");
  const config = join(dir, "market-data.json");
  const fast = { backoff: { initialSeconds: 0.02, maxSeconds: 0.1 } };
  writeFileSync(
    config,
    JSON.stringify({
      silenceSeconds: 60,
      providers: {
        kite: { type: "kite", keys: ["CRUDEOIL", "USDINR"], hours: "always", ...fast },
        broker: {
          type: "http-json",
          url: `${broker.url}/cl`,
          quotes: [{ key: "CL", bid: "bid", ask: "ask" }],
          pollSeconds: 0.05,
          ...fast,
        },
      },
    }),
  );
  server = await startTestServer({
    dataDir,
    env: {
      FEED: "composite",
      MARKET_DATA_CONFIG: config,
      KITE_API_KEY: KITE_KEY,
      KITE_API_SECRET: KITE_SECRET,
      KITE_API_ROOT: kite.url,
      KITE_WS_ROOT: kite.wsUrl,
    },
  });
  client = new HttpClient(server.url);
  await kite.until(() => (kite.latest?.messages.length ?? 0) >= 2, "the subscription");
  sendBook([level(7_213_000)], [level(7_214_000)]);
  await eventually(calculations, (c) => c.CL_BUY && c.CL_SELL, "both CL spreads");
});

afterEach(async () => {
  await server?.stop();
  server = undefined;
  await kite.stop();
  await broker.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("market edge cases through the real server", () => {
  it("watches the monthly USDINR future, not the weekly that expires first", async () => {
    const health = await client.get("/api/health");
    const kiteHealth = health.body.providers.find((p: { name: string }) => p.name === "kite");
    expect(kiteHealth.contracts.USDINR).toBe("USDINR99JANFUT (expires 2099-01-28)");
    expect(kite.latest?.messages[0]).toEqual({ a: "subscribe", v: [CRUDEOIL, USDINR_JAN] });
  });

  it("clears an emptied offer side instead of keeping its old price, and drops the spread that needs it", async () => {
    // Bids move up to 72155 and the offer side empties: quantity 0 at the best ask.
    sendBook([level(7_215_500)], []);
    const now = await eventually(prices, (p) => p.mcx.CRUDEOIL?.bid === 72155, "the new bid");
    // The ask is gone, not kept; the entry names its contract (docs/user-guide.md "Instruments").
    expect(now.mcx.CRUDEOIL).toEqual({
      bid: 72155,
      timestamp: expect.any(Number),
      contract: "CRUDEOIL26FEBFUT",
    });
    const calc = await calculations();
    // BUY needs MCX's ask: gone. SELL (MCX bid − CL ask × USDINR) stands: 72155 − 81.52 × 88.5.
    expect(calc.CL_BUY).toBeUndefined();
    expect(calc.CL_SELL.spread).toBeCloseTo(72155 - 81.52 * 88.5, 6);
  });

  it("clears both sides of an emptied book even after a trade, and builds no spread on it", async () => {
    // Both best levels at quantity 0 (price bytes left over) while the last trade was 72140: the
    // book is empty now, not a last-only quote with the last price on both sides.
    sendBook([level(7_215_500, 0)], [level(7_216_000, 0)], 7_214_000);
    const now = await eventually(
      prices,
      (p) => p.mcx.CRUDEOIL?.bid === undefined,
      "the emptied book",
    );
    expect(now.mcx.CRUDEOIL?.ask).toBeUndefined();
    expect(now.mcx.CRUDEOIL?.lastOnly).toBeUndefined();
    const calc = await calculations();
    expect(calc.CL_BUY).toBeUndefined();
    expect(calc.CL_SELL).toBeUndefined();
    // A book again: both spreads come back.
    sendBook([level(7_213_000)], [level(7_214_000)]);
    await eventually(calculations, (c) => c.CL_BUY && c.CL_SELL, "the spreads back");
  });

  it("shows a crossed book as sent but computes no spread from it", async () => {
    sendBook([level(7_215_500)], [level(7_214_000)]);
    const now = await eventually(prices, (p) => p.mcx.CRUDEOIL?.bid === 72155, "the crossed book");
    expect(now.mcx.CRUDEOIL).toMatchObject({ bid: 72155, ask: 72140 });
    const calc = await calculations();
    expect(calc.CL_BUY).toBeUndefined();
    expect(calc.CL_SELL).toBeUndefined();
    // Uncrossed again: both come back.
    sendBook([level(7_213_000)], [level(7_214_000)]);
    await eventually(calculations, (c) => c.CL_BUY && c.CL_SELL, "the spreads back");
  });

  it("takes negative prices as prices instead of freezing the row", async () => {
    sendBook([level(-290_000)], [level(-285_000)], -288_400);
    const now = await eventually(prices, (p) => p.mcx.CRUDEOIL?.bid === -2900, "negative prices");
    expect(now.mcx.CRUDEOIL).toMatchObject({ bid: -2900, ask: -2850 });
    const calc = await calculations();
    // BUY: −2850 − 81.50 × 88.5 = −10062.75
    expect(calc.CL_BUY.spread).toBeCloseTo(-2850 - 81.5 * 88.5, 6);
  });
});
