import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  BUILT_IN_INSTRUMENTS,
  type InstrumentSpec,
  type Quote,
  shippedInstrument,
} from "@spreadwatch/core";
import { openStore, type Store } from "@spreadwatch/db";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/index.ts";
import type { Feed } from "../src/feeds/feed.ts";
import { createMarketDataFeed } from "../src/feeds/providers/index.ts";
import { kiteSessionsIn } from "../src/feeds/providers/kite/session.ts";
import {
  instrumentsCsv as csv,
  FakeKite,
  KITE_KEY,
  KITE_SECRET,
  instrumentRow as row,
} from "./fakes/fake-kite.ts";
import { FakeYahoo, QUOTE_PATH } from "./fakes/fake-yahoo.ts";
import { frame, GOLD_FEB, ltpPacket } from "./fakes/kite-packets.ts";
import { until } from "./fakes/wait.ts";

const ZINC = (110 << 8) | 7;
const spec = (key: string) => shippedInstrument(key) as InstrumentSpec;

let kite: FakeKite;
let yahoo: FakeYahoo;
let dir: string;
let store: Store;
let feed: Feed | undefined;
let quotes: Quote[];

beforeEach(async () => {
  kite = await new FakeKite().start();
  yahoo = await new FakeYahoo().start();
  dir = mkdtempSync(join(tmpdir(), "spreadwatch-composite-"));
  store = await openStore({ kind: "sqlite", file: join(dir, "spreadwatch.db") });
  quotes = [];
  const mcx = (token: number, tradingsymbol: string, name: string) =>
    row({ token, tradingsymbol, name, expiry: "2099-12-05", segment: "MCX-FUT", exchange: "MCX" });
  kite.instruments.set(
    "MCX",
    csv([mcx(GOLD_FEB, "GOLD99DECFUT", "GOLD"), mcx(ZINC, "ZINC99DECFUT", "ZINC")]),
  );
  kite.validTokens.add("access-1");
  const now = Date.now();
  await kiteSessionsIn(store).save({
    accessToken: "access-1",
    userId: "AB1234",
    savedAt: now,
    expiresAt: now + 3_600_000,
  });
  for (const symbol of ["GC=F", "SI=F", "BZ=F", "GOLDBEES.NS", "XAUUSD=X"])
    yahoo.results.set(symbol, { regularMarketPrice: 100, regularMarketTime: 1_768_900_000 });
});

afterEach(async () => {
  await feed?.stop();
  feed = undefined;
  await kite.stop();
  await yahoo.stop();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function createFeed(providers: Record<string, unknown>): Feed {
  const file = join(dir, "market-data.json");
  writeFileSync(file, JSON.stringify({ providers }));
  const config = loadConfig({
    FEED: "composite",
    MARKET_DATA_CONFIG: file,
    KITE_API_KEY: KITE_KEY,
    KITE_API_SECRET: KITE_SECRET,
    KITE_API_ROOT: kite.url,
    KITE_WS_ROOT: kite.wsUrl,
  });
  feed = createMarketDataFeed(config, { kiteSessions: kiteSessionsIn(store) }, () => {});
  return feed;
}

describe("the composite feed routes the instruments in use", () => {
  it("by the config's keys first, then by source, then by exchange; the rest are missing", async () => {
    const yahooConfig = {
      type: "yahoo",
      keys: ["GC", "XAUUSD"],
      baseUrl: yahoo.url,
      cookieUrl: yahoo.cookieUrl,
      pollSeconds: 0.05,
    };
    const composite = createFeed({
      kite: {
        type: "kite",
        keys: ["GOLD", "SILVER", "NIFTY50"],
        backoff: { initialSeconds: 0.05 },
      },
      yahoo: yahooConfig,
    });
    const goldBees: InstrumentSpec = {
      ...spec("NIFTY50"),
      key: "GOLDBEES",
      source: { provider: "yahoo", symbol: "GOLDBEES.NS" },
    };
    const bullion: InstrumentSpec = {
      ...spec("GOLD"),
      key: "BULLDEX",
      month: null,
      source: { provider: "http-json", symbol: "bulldex.last" },
    };
    composite.setInstruments?.([
      ...BUILT_IN_INSTRUMENTS,
      spec("ZINC"),
      spec("BZ"),
      goldBees,
      bullion,
    ]);
    await composite.start((quote) => quotes.push(quote));

    // Kite: its config keys and ZINC by exchange. The built-in keys the config leaves out stay
    // out: the operator chose which provider serves each of the fifteen.
    const [kiteHealth, yahooHealth] = composite.health?.() ?? [];
    expect(kiteHealth?.keys).toEqual(["GOLD", "SILVER", "NIFTY50", "ZINC"]);
    // Yahoo: its config keys, BZ by exchange and GOLDBEES by its source.
    expect(yahooHealth?.keys).toEqual(["GC", "XAUUSD", "BZ", "GOLDBEES"]);
    expect(kiteHealth?.missing).toMatchObject({
      COPPER: "no provider in MARKET_DATA_CONFIG lists COPPER in its keys",
      GIFTNIFTY: "no provider in MARKET_DATA_CONFIG lists GIFTNIFTY in its keys",
      BULLDEX: "no http-json provider in MARKET_DATA_CONFIG for BULLDEX",
    });
    expect(yahooHealth?.missing).toBeUndefined();

    await kite.until(() => (kite.latest?.messages.length ?? 0) >= 2, "Kite's subscription");
    expect(kite.latest?.messages[0]).toEqual({ a: "subscribe", v: [GOLD_FEB, ZINC] });
    kite.send(frame(ltpPacket(ZINC, 30_010)));
    await until(() => quotes.some((q) => q.key === "ZINC"), "ZINC through the composite");
    expect(quotes.find((q) => q.key === "ZINC")).toMatchObject({
      source: "mcx",
      contract: "ZINC99DECFUT",
    });
    await until(() => quotes.some((q) => q.key === "GOLDBEES"), "GOLDBEES from Yahoo");
    const symbols = yahoo.requests.find((r) => r.path === QUOTE_PATH)?.query.get("symbols");
    expect(symbols?.split(",")).toEqual(expect.arrayContaining(["GC=F", "BZ=F", "GOLDBEES.NS"]));

    // Taken out of use: ZINC is unsubscribed, and its ticks no longer come through.
    composite.setInstruments?.(BUILT_IN_INSTRUMENTS);
    await kite.until(() => (kite.latest?.messages.length ?? 0) >= 3, "the unsubscription");
    expect(kite.latest?.messages[2]).toEqual({ a: "unsubscribe", v: [ZINC] });
    const missing = composite.health?.()[0]?.missing;
    expect(missing).toMatchObject({
      GIFTNIFTY: "no provider in MARKET_DATA_CONFIG lists GIFTNIFTY in its keys",
      // This fake Kite lists only GOLD and ZINC: each other key says so, none is a silent blank.
      SILVER: "no SILVER in Kite's MCX instruments list",
      NIFTY50: "no NIFTY 50 in Kite's NSE instruments list",
    });
    expect(missing).not.toHaveProperty("BULLDEX");
  });

  it("quotes the config's keys until the instruments in use are set", async () => {
    const composite = createFeed({
      yahoo: {
        type: "yahoo",
        keys: ["GC", "XAUUSD"],
        baseUrl: yahoo.url,
        cookieUrl: yahoo.cookieUrl,
        pollSeconds: 0.05,
      },
    });
    await composite.start((quote) => quotes.push(quote));
    await until(() => yahoo.count(QUOTE_PATH) >= 2, "two polls");
    expect(yahoo.requests.find((r) => r.path === QUOTE_PATH)?.query.get("symbols")).toBe(
      "GC=F,XAUUSD=X",
    );
    expect(composite.health?.()[0]).toMatchObject({ keys: ["GC", "XAUUSD"] });
    expect(composite.health?.()[0]).not.toHaveProperty("missing");
  });
});
