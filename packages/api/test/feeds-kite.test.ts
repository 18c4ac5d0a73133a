import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type InstrumentSpec, type Quote, shippedInstrument } from "@spreadwatch/core";
import { openStore, type Store } from "@spreadwatch/db";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createKiteProvider, type KiteOptions } from "../src/feeds/providers/kite/kite.ts";
import {
  exchangeRequestToken,
  KiteLoginError,
  type KiteSessions,
  kiteSessionsIn,
} from "../src/feeds/providers/kite/session.ts";
import type { Provider } from "../src/feeds/providers/provider.ts";
import {
  instrumentsCsv as csv,
  FakeKite,
  mcxFuture,
  instrumentRow as row,
} from "./fakes/fake-kite.ts";
import {
  frame,
  fullPacket,
  GOLD_APR,
  GOLD_FEB,
  GOLD_JUN,
  HEARTBEAT,
  indexPacket,
  ltpPacket,
  quotePacket,
  ZINC_JAN,
} from "./fakes/kite-packets.ts";
import { HANG_CUT_MS, until } from "./fakes/wait.ts";

const SILVER_MAR = (102 << 8) | 7;
const USDINR_JAN = (200 << 8) | 3;
const NIFTY = 256265;

/** The shipped catalogue's instrument for a key, as the instruments in use hand it over. */
const spec = (key: string): InstrumentSpec => {
  const found = shippedInstrument(key);
  if (!found) throw new Error(`${key} is not shipped`);
  return found;
};

let kite: FakeKite;
let dataDir: string;
let store: Store;
let sessions: KiteSessions;
let provider: Provider | undefined;
let quotes: Quote[];
let logs: string[];
let day: number;

/** As a login on any instance does: the session saved in the database the provider reads. */
async function storeToken(token: string) {
  const now = Date.now();
  await sessions.save({
    accessToken: token,
    userId: "AB1234",
    savedAt: now,
    expiresAt: now + 3_600_000,
  });
  kite.validTokens.add(token);
}

function start(
  overrides: Partial<KiteOptions> = {},
  instruments?: readonly InstrumentSpec[],
): Provider {
  provider = createKiteProvider({
    name: "kite",
    keys: ["GOLD", "SILVER", "USDINR", "NIFTY50"],
    settings: kite.settings(),
    sessions,
    rollDaysBeforeExpiry: 3,
    silenceMs: 60_000,
    hours: "always",
    refreshMs: 60_000,
    tokenCheckMs: 30,
    staleAfterMs: 60_000,
    timeoutMs: 2_000,
    backoff: { initialMs: 20, maxMs: 100 },
    log: (message) => logs.push(message),
    dateNow: () => day,
    ...overrides,
  });
  // As the composite feed does: the instruments in use are set before the provider starts.
  if (instruments) provider.setInstruments?.(instruments);
  provider.start((quote) => quotes.push(quote));
  return provider;
}

/** The connection's subscribe and mode messages have arrived. */
async function subscribed(connections = 1) {
  await kite.until(
    () => kite.connections.length >= connections && (kite.latest?.messages.length ?? 0) >= 2,
    `subscription on connection ${connections}`,
  );
  return kite.latest?.messages ?? [];
}

beforeEach(async () => {
  kite = await new FakeKite().start();
  dataDir = mkdtempSync(join(tmpdir(), "spreadwatch-kite-"));
  store = await openStore({ kind: "sqlite", file: join(dataDir, "spreadwatch.db") });
  sessions = kiteSessionsIn(store);
  quotes = [];
  logs = [];
  day = Date.parse("2026-01-20T06:00:00Z");
  kite.instruments.set(
    "MCX",
    csv([
      mcxFuture(GOLD_FEB, "GOLD26FEBFUT", "GOLD", "2026-02-05"),
      mcxFuture(GOLD_APR, "GOLD26APRFUT", "GOLD", "2026-04-03"),
      mcxFuture(SILVER_MAR, "SILVER26MARFUT", "SILVER", "2026-03-05"),
    ]),
  );
  kite.instruments.set(
    "CDS",
    csv([
      row({
        token: USDINR_JAN,
        tradingsymbol: "USDINR26JANFUT",
        name: "USDINR",
        expiry: "2026-01-28",
        segment: "CDS-FUT",
        exchange: "CDS",
      }),
    ]),
  );
  kite.instruments.set(
    "NSE",
    csv([
      row({
        token: NIFTY,
        tradingsymbol: "NIFTY 50",
        name: "NIFTY 50",
        type: "EQ",
        segment: "INDICES",
        exchange: "NSE",
      }),
    ]),
  );
});

afterEach(async () => {
  await provider?.stop();
  provider = undefined;
  await kite.stop();
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the Kite provider against a fake Kite", () => {
  it("subscribes the picked contracts in full mode and turns frames into quotes", async () => {
    await storeToken("token-1");
    start();
    const messages = await subscribed();
    expect(messages).toEqual([
      { a: "subscribe", v: [GOLD_FEB, SILVER_MAR, USDINR_JAN, NIFTY] },
      { a: "mode", v: ["full", [GOLD_FEB, SILVER_MAR, USDINR_JAN, NIFTY]] },
    ]);
    expect(kite.latest?.accessToken).toBe("token-1");
    // The fake refuses a ticker handshake without it, as it refuses the instruments download.
    expect(kite.latest?.headers["x-kite-version"]).toBe("3");

    kite.send(HEARTBEAT);
    kite.send(
      frame(
        fullPacket(GOLD_FEB, {
          last: 7_650_100,
          exchangeTime: 1_768_900_000,
          bids: [{ qty: 2, price: 7_650_000, orders: 1 }],
          asks: [{ qty: 1, price: 7_650_300, orders: 1 }],
        }),
        quotePacket(SILVER_MAR, { last: 9_123_400 }),
        fullPacket(USDINR_JAN, { last: 885_725_000, exchangeTime: 1_768_900_001 }),
        indexPacket(NIFTY, { last: 2_600_005, exchangeTime: 1_768_900_002 }),
        ltpPacket(999_999, 100), // not ours
      ),
    );
    await until(() => quotes.length >= 4, "four quotes");
    expect(quotes[0]).toEqual({
      source: "mcx",
      key: "GOLD",
      ts: 1_768_900_000_000,
      bid: 76500,
      ask: 76503,
      contract: "GOLD26FEBFUT",
      expiry: "2026-02-05",
    });
    expect(quotes[1]).toMatchObject({
      source: "mcx",
      key: "SILVER",
      bid: 91234,
      ask: 91234,
      lastOnly: true,
    });
    expect(quotes[2]).toEqual({
      source: "fx",
      key: "USDINR",
      ts: 1_768_900_001_000,
      price: 88.5725,
      contract: "USDINR26JANFUT",
      expiry: "2026-01-28",
    });
    expect(quotes[3]).toEqual({
      source: "index",
      key: "NIFTY50",
      ts: 1_768_900_002_000,
      price: 26000.05,
    });
    expect(quotes).toHaveLength(4);

    const health = provider?.health();
    expect(health).toMatchObject({
      name: "kite",
      kind: "kite",
      state: "live",
      delayed: false,
      reconnects: 0,
      marketOpen: true,
    });
    expect(health?.contracts).toEqual({
      GOLD: "GOLD26FEBFUT (expires 2026-02-05)",
      SILVER: "SILVER26MARFUT (expires 2026-03-05)",
      USDINR: "USDINR26JANFUT (expires 2026-01-28)",
      NIFTY50: "NIFTY 50",
    });
  });

  it("logs and skips a broken frame, then reads the next one", async () => {
    await storeToken("token-1");
    start();
    await subscribed();
    const good = frame(ltpPacket(GOLD_FEB, 7_600_000));
    kite.send(good.subarray(0, good.length - 2));
    kite.sendText("{not json");
    kite.send(frame(ltpPacket(GOLD_FEB, 7_600_100)));
    await until(() => quotes.length === 1, "the quote after the broken frame");
    expect(quotes[0]).toMatchObject({ key: "GOLD", bid: 76001, ask: 76001 });
    expect(logs.some((l) => /dropped a broken ticker frame/.test(l))).toBe(true);
    expect(provider?.health()).toMatchObject({
      state: "live",
      lastError: expect.stringMatching(/broken ticker frame/),
    });
    expect(kite.connections).toHaveLength(1);
  });

  it("reconnects after the server drops the socket, and subscribes again", async () => {
    await storeToken("token-1");
    start();
    await subscribed(1);
    kite.drop();
    await subscribed(2);
    kite.send(frame(ltpPacket(GOLD_FEB, 7_600_000)));
    await until(() => quotes.length === 1, "a quote on the new connection");
    expect(provider?.health()).toMatchObject({
      reconnects: 1,
      lastError: expect.stringMatching(/closed/),
    });
  });

  it("retries a failing or hung instruments download on the backoff, then connects", async () => {
    await storeToken("token-1");
    kite.failNextInstruments.push(500, "hang");
    start({ keys: ["GOLD"], timeoutMs: HANG_CUT_MS });
    await subscribed(1);
    expect(kite.requests.filter((r) => r.startsWith("GET /instruments/"))).toHaveLength(3);
    expect(logs.some((l) => /HTTP 500; reconnecting/.test(l))).toBe(true);
    expect(logs.some((l) => /Kite did not answer within 2 s; reconnecting/.test(l))).toBe(true);
    expect(provider?.health()).toMatchObject({
      reconnects: 2,
      lastError: "Kite did not answer within 2 s",
    });
    kite.send(frame(ltpPacket(GOLD_FEB, 7_600_000)));
    await until(() => provider?.health().state === "live", "live after the retries");
  });

  it("treats a silent open socket as dead while the market is open, and reopens it", async () => {
    await storeToken("token-1");
    start({ silenceMs: 150 });
    await subscribed(1);
    // After its first heartbeat the fake sends nothing at all.
    await subscribed(2);
    expect(logs.some((l) => /no data for .* while the market is open/.test(l))).toBe(true);
    expect(provider?.health().reconnects).toBeGreaterThanOrEqual(1);
  });

  it("keeps a silent socket open while the market is closed", async () => {
    await storeToken("token-1");
    const verdicts: string[] = [];
    start({
      silenceMs: 100,
      hours: { timeZone: "Asia/Kolkata", days: [], open: "09:00", close: "09:01" } as never,
      onSilenceCheck: (verdict) => verdicts.push(verdict),
    });
    await subscribed(1);
    // The watchdog has found the socket silent past its window several times over.
    await until(
      () => verdicts.filter((v) => v === "market closed").length >= 5,
      "five silence checks with the market closed",
    );
    expect(verdicts).not.toContain("dead");
    expect(kite.connections).toHaveLength(1);
    expect(kite.latest?.socket.readyState).toBe(WebSocket.OPEN);
    expect(provider?.health()).toMatchObject({ marketOpen: false, reconnects: 0 });
  });

  it("rolls to the next contract when the day moves into the roll window", async () => {
    await storeToken("token-1");
    start({ keys: ["GOLD"], refreshMs: 30 });
    await subscribed();
    day = Date.parse("2026-02-02T06:00:00Z"); // 3 days before GOLD26FEBFUT expires
    await kite.until(() => (kite.latest?.messages.length ?? 0) >= 5, "the roll");
    expect(kite.latest?.messages.slice(2)).toEqual([
      { a: "unsubscribe", v: [GOLD_FEB] },
      { a: "subscribe", v: [GOLD_APR] },
      { a: "mode", v: ["full", [GOLD_APR]] },
    ]);
    expect(provider?.health().contracts).toEqual({ GOLD: "GOLD26APRFUT (expires 2026-04-03)" });
    kite.send(frame(ltpPacket(GOLD_FEB, 1), ltpPacket(GOLD_APR, 7_700_000)));
    await until(() => quotes.length === 1, "the new contract's quote");
    expect(quotes[0]).toMatchObject({ key: "GOLD", bid: 77000 });
  });

  it("is not configured without a token, and connects once a login stores one", async () => {
    start();
    await until(() => provider?.health().state === "not_configured", "not configured");
    expect(provider?.health().lastError).toMatch(/no Kite access token/);
    await storeToken("token-2");
    await subscribed(1);
    expect(kite.latest?.accessToken).toBe("token-2");
  });

  it("waits for a new login when Kite refuses the stored token, then uses the new one", async () => {
    await storeToken("revoked");
    kite.validTokens.delete("revoked");
    start();
    await until(() => provider?.health().state === "not_configured", "the refused token");
    // The 403 says "refused the access token"; the next token check, which may come first on a
    // busy machine, says "refused the stored access token": the same state, either wording.
    expect(provider?.health().lastError).toMatch(/Kite refused the (stored )?access token/);
    await storeToken("token-3");
    await subscribed(1);
    expect(kite.latest?.accessToken).toBe("token-3");
  });

  it("switches to a newly stored token on the open connection", async () => {
    await storeToken("token-1");
    start();
    await subscribed(1);
    await storeToken("token-4");
    await subscribed(2);
    expect(kite.latest?.accessToken).toBe("token-4");
  });

  it("gives up the token exchange at its deadline when Kite does not answer", async () => {
    kite.hangSessionToken = true;
    const settings = kite.settings();
    // Long enough that the request reaches the fake Kite on a loaded machine (at 300 ms and load
    // 40 it was sometimes cut off before it was sent, and "went out once" saw none).
    const exchange = exchangeRequestToken(settings, "request-1", Date.now, 3_000);
    await expect(exchange).rejects.toThrow(KiteLoginError);
    await expect(exchange).rejects.toThrow("Could not reach Kite: no answer within 3 s");
    // The one-time request token went out once: a request that reached Kite is not repeated.
    expect(kite.requests.filter((r) => r === "POST /session/token")).toHaveLength(1);
  });

  it("is not configured without an API key", async () => {
    start({
      settings: {
        apiKey: undefined,
        apiSecret: undefined,
        apiRoot: kite.url,
        wsRoot: kite.wsUrl,
        loginUrl: "http://x",
      },
    });
    await until(() => provider?.health().state === "not_configured", "not configured");
    expect(provider?.health().lastError).toMatch(/KITE_API_KEY/);
    expect(kite.requests).toEqual([]);
  });
});

describe("the instruments in use on a running Kite provider", () => {
  const withZinc = () =>
    kite.instruments.set(
      "MCX",
      csv([
        mcxFuture(GOLD_FEB, "GOLD26FEBFUT", "GOLD", "2026-02-05"),
        mcxFuture(GOLD_APR, "GOLD26APRFUT", "GOLD", "2026-04-03"),
        mcxFuture(SILVER_MAR, "SILVER26MARFUT", "SILVER", "2026-03-05"),
        mcxFuture(ZINC_JAN, "ZINC26JANFUT", "ZINC", "2026-01-30"),
      ]),
    );

  it("subscribes only what is added and unsubscribes only what is removed, on the open socket", async () => {
    withZinc();
    await storeToken("token-1");
    start({}, [spec("GOLD"), spec("SILVER")]);
    expect(await subscribed()).toEqual([
      { a: "subscribe", v: [GOLD_FEB, SILVER_MAR] },
      { a: "mode", v: ["full", [GOLD_FEB, SILVER_MAR]] },
    ]);
    expect(kite.requests).not.toContain("GET /instruments/NSE");

    provider?.setInstruments?.(
      ["GOLD", "SILVER", "ZINC", "GOLD@next", "GOLD@far", "NIFTY50"].map(spec),
    );
    await kite.until(() => (kite.latest?.messages.length ?? 0) >= 4, "the new subscription");
    // Only the new tokens, on the same connection; NSE's list is fetched now that NIFTY50 needs it.
    expect(kite.latest?.messages.slice(2)).toEqual([
      { a: "subscribe", v: [ZINC_JAN, GOLD_APR, NIFTY] },
      { a: "mode", v: ["full", [ZINC_JAN, GOLD_APR, NIFTY]] },
    ]);
    expect(kite.connections).toHaveLength(1);
    expect(kite.requests).toContain("GET /instruments/NSE");
    const health = provider?.health();
    expect(health?.keys).toEqual(["GOLD", "SILVER", "ZINC", "GOLD@next", "GOLD@far", "NIFTY50"]);
    expect(health?.missing).toEqual({
      "GOLD@far": "no far contract for GOLD in Kite's instruments list",
    });
    expect(health?.contracts).toMatchObject({
      ZINC: "ZINC26JANFUT (expires 2026-01-30)",
      "GOLD@next": "GOLD26APRFUT (expires 2026-04-03)",
    });

    kite.send(
      frame(
        fullPacket(ZINC_JAN, {
          last: 30_010,
          bids: [{ qty: 1, price: 30_005, orders: 1 }],
          asks: [{ qty: 1, price: 30_015, orders: 1 }],
        }),
        ltpPacket(GOLD_APR, 7_700_000),
        ltpPacket(GOLD_FEB, 7_650_000),
      ),
    );
    await until(() => quotes.length >= 3, "quotes of the added instruments and of GOLD");
    expect(quotes).toEqual([
      expect.objectContaining({
        source: "mcx",
        key: "ZINC",
        bid: 300.05,
        ask: 300.15,
        contract: "ZINC26JANFUT",
        expiry: "2026-01-30",
      }),
      expect.objectContaining({
        key: "GOLD@next",
        bid: 77000,
        contract: "GOLD26APRFUT",
        expiry: "2026-04-03",
      }),
      expect.objectContaining({ key: "GOLD", bid: 76500, contract: "GOLD26FEBFUT" }),
    ]);

    provider?.setInstruments?.(["GOLD", "SILVER", "GOLD@next", "NIFTY50"].map(spec));
    await kite.until(() => (kite.latest?.messages.length ?? 0) >= 5, "the unsubscription");
    expect(kite.latest?.messages.slice(4)).toEqual([{ a: "unsubscribe", v: [ZINC_JAN] }]);
    expect(provider?.health().missing).toBeUndefined();
    quotes.length = 0;
    // A late ZINC tick in the same frame as GOLD's: GOLD is quoted, ZINC no longer.
    kite.send(frame(ltpPacket(ZINC_JAN, 30_020), ltpPacket(GOLD_FEB, 7_650_100)));
    await until(() => quotes.length >= 1, "GOLD's quote");
    expect(quotes.map((q) => q.key)).toEqual(["GOLD"]);
    expect(kite.connections).toHaveLength(1);
  });

  it("rolls the near and next months on the IST day the roll window starts, not the UTC day", async () => {
    kite.instruments.set(
      "MCX",
      csv([
        mcxFuture(GOLD_FEB, "GOLD26FEBFUT", "GOLD", "2026-02-05"),
        mcxFuture(GOLD_APR, "GOLD26APRFUT", "GOLD", "2026-04-03"),
        mcxFuture(GOLD_JUN, "GOLD26JUNFUT", "GOLD", "2026-06-05"),
      ]),
    );
    await storeToken("token-1");
    const refreshes: Array<{ day: string; contracts: Record<string, string> }> = [];
    start({ refreshMs: 30, onRefresh: (d, contracts) => refreshes.push({ day: d, contracts }) }, [
      spec("GOLD"),
      spec("GOLD@next"),
    ]);
    await subscribed();
    expect(kite.latest?.messages[0]).toEqual({ a: "subscribe", v: [GOLD_FEB, GOLD_APR] });

    // 23:59 IST on 1 February: four days before GOLD26FEBFUT expires, outside the 3-day window.
    day = Date.parse("2026-02-01T18:29:00Z");
    await until(() => refreshes.some((r) => r.day === "2026-02-01"), "a refresh on 1 February");
    expect(refreshes.find((r) => r.day === "2026-02-01")?.contracts).toEqual({
      GOLD: "GOLD26FEBFUT (expires 2026-02-05)",
      "GOLD@next": "GOLD26APRFUT (expires 2026-04-03)",
    });

    // 00:01 IST on 2 February (still 1 February in UTC): the roll window opens.
    day = Date.parse("2026-02-01T18:31:00Z");
    await until(() => refreshes.some((r) => r.day === "2026-02-02"), "a refresh on 2 February");
    expect(refreshes.find((r) => r.day === "2026-02-02")?.contracts).toEqual({
      GOLD: "GOLD26APRFUT (expires 2026-04-03)",
      "GOLD@next": "GOLD26JUNFUT (expires 2026-06-05)",
    });
    await kite.until(() => (kite.latest?.messages.length ?? 0) >= 5, "the roll's messages");
    // Nothing went out at 23:59; at 00:01 FEB goes, JUN comes, APR stays subscribed.
    expect(kite.latest?.messages.slice(2)).toEqual([
      { a: "unsubscribe", v: [GOLD_FEB] },
      { a: "subscribe", v: [GOLD_JUN] },
      { a: "mode", v: ["full", [GOLD_JUN]] },
    ]);
    kite.send(frame(ltpPacket(GOLD_APR, 7_700_000), ltpPacket(GOLD_JUN, 7_800_000)));
    await until(() => quotes.length >= 2, "quotes after the roll");
    expect(quotes).toEqual([
      expect.objectContaining({ key: "GOLD", bid: 77000, contract: "GOLD26APRFUT" }),
      expect.objectContaining({ key: "GOLD@next", bid: 78000, contract: "GOLD26JUNFUT" }),
    ]);
  });

  it("takes an exact tradingsymbol, says what Kite does not list, and stays within the connection limit", async () => {
    withZinc();
    await storeToken("token-1");
    const custom = (key: string, symbol: string): InstrumentSpec => ({
      ...spec("GOLD"),
      key,
      month: null,
      source: { provider: "kite", symbol },
    });
    start({ maxInstrumentsPerConnection: 3 }, [
      spec("GOLD"),
      custom("GOLDAPR", "GOLD26APRFUT"),
      custom("PLATINUM", "PLATINUM"),
      // The same contract under a second key takes no second slot.
      custom("GOLDFEB", "GOLD26FEBFUT"),
      spec("SILVER"),
      spec("ZINC"),
    ]);
    expect((await subscribed())[0]).toEqual({
      a: "subscribe",
      v: [GOLD_FEB, GOLD_APR, SILVER_MAR],
    });
    expect(provider?.health().missing).toEqual({
      PLATINUM: "no PLATINUM in Kite's MCX instruments list",
      ZINC: "over Kite's limit of 3 instruments per connection",
    });
    kite.send(frame(ltpPacket(GOLD_FEB, 7_650_000), ltpPacket(GOLD_APR, 7_700_000)));
    await until(() => quotes.length >= 3, "three quotes from two tokens");
    expect(quotes.map((q) => [q.key, q.contract])).toEqual([
      ["GOLD", "GOLD26FEBFUT"],
      ["GOLDFEB", "GOLD26FEBFUT"],
      ["GOLDAPR", "GOLD26APRFUT"],
    ]);
  });
});
