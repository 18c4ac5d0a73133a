import { type InstrumentSpec, type Quote, shippedInstrument } from "@spreadwatch/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Provider } from "../src/feeds/providers/provider.ts";
import { createYahooProvider, type YahooOptions } from "../src/feeds/providers/yahoo/yahoo.ts";
import { CRUMB_PATH, FakeYahoo, QUOTE_PATH } from "./fakes/fake-yahoo.ts";
import { HANG_CUT_MS, until } from "./fakes/wait.ts";

let yahoo: FakeYahoo;
let provider: Provider | undefined;
let quotes: Quote[];
let logs: string[];
let waits: Array<{ ms: number; afterError: boolean }>;

const T = 1_768_900_000; // epoch seconds, as Yahoo sends them

function start(overrides: Partial<YahooOptions> = {}): Provider {
  provider = createYahooProvider({
    name: "yahoo",
    keys: ["GC", "SI", "XAUUSD", "USDINR", "NIFTY50"],
    baseUrl: yahoo.url,
    cookieUrl: yahoo.cookieUrl,
    pollMs: 30,
    timeoutMs: 2_000,
    staleAfterMs: 60_000,
    backoff: { initialMs: 40, maxMs: 1_000 },
    log: (message) => logs.push(message),
    onWait: (ms, afterError) => waits.push({ ms, afterError }),
    ...overrides,
  });
  provider.start((quote) => quotes.push(quote));
  return provider;
}

beforeEach(async () => {
  yahoo = await new FakeYahoo().start();
  quotes = [];
  logs = [];
  waits = [];
  yahoo.results.set("GC=F", {
    bid: 4050.1,
    ask: 4050.4,
    regularMarketPrice: 4050.3,
    regularMarketTime: T,
  });
  // Yahoo often sends 0 for an absent side.
  yahoo.results.set("SI=F", {
    bid: 0,
    ask: 0,
    regularMarketPrice: 50.55,
    regularMarketTime: T + 1,
  });
  yahoo.results.set("XAUUSD=X", { regularMarketPrice: 4030.25, regularMarketTime: T + 2 });
  yahoo.results.set("INR=X", {
    bid: 88.6,
    ask: 88.62,
    regularMarketPrice: 88.61,
    regularMarketTime: T + 3,
  });
  yahoo.results.set("^NSEI", { regularMarketPrice: 26010.5, regularMarketTime: T + 4 });
});

afterEach(async () => {
  await provider?.stop();
  provider = undefined;
  await yahoo.stop();
});

describe("the Yahoo provider against a fake Yahoo", () => {
  it("asks for every symbol in one request and marks every quote delayed", async () => {
    start();
    await until(() => quotes.length >= 5, "five quotes");
    const request = yahoo.requests.find((r) => r.path === QUOTE_PATH);
    expect(request?.query.get("symbols")).toBe("GC=F,SI=F,XAUUSD=X,INR=X,^NSEI");
    expect(request?.query.get("crumb")).toBe("crumb-1");
    expect(quotes).toEqual([
      { source: "cme", key: "GC", ts: T * 1000, delayed: true, bid: 4050.1, ask: 4050.4 },
      {
        source: "cme",
        key: "SI",
        ts: (T + 1) * 1000,
        delayed: true,
        bid: 50.55,
        ask: 50.55,
        lastOnly: true,
      },
      { source: "spot", key: "XAUUSD", ts: (T + 2) * 1000, delayed: true, price: 4030.25 },
      { source: "fx", key: "USDINR", ts: (T + 3) * 1000, delayed: true, price: 88.61 },
      { source: "index", key: "NIFTY50", ts: (T + 4) * 1000, delayed: true, price: 26010.5 },
    ]);
    expect(provider?.health()).toMatchObject({
      kind: "yahoo",
      state: "delayed",
      delayed: true,
      lastError: null,
    });
  });

  it("sends a quote only when it changed", async () => {
    start();
    await until(() => yahoo.count(QUOTE_PATH) >= 4, "four polls");
    expect(quotes).toHaveLength(5);
    yahoo.results.set("GC=F", {
      bid: 4051,
      ask: 4051.3,
      regularMarketPrice: 4051.1,
      regularMarketTime: T + 10,
    });
    await until(() => quotes.length === 6, "the changed quote");
    expect(quotes[5]).toMatchObject({ key: "GC", bid: 4051, ask: 4051.3 });
  });

  it("skips a symbol without a price, says so once, and keeps the others", async () => {
    yahoo.results.set("XAUUSD=X", { regularMarketPrice: null, regularMarketTime: T });
    yahoo.results.delete("^NSEI");
    start();
    await until(() => yahoo.count(QUOTE_PATH) >= 4, "four polls");
    expect(quotes.map((q) => q.key)).toEqual(["GC", "SI", "USDINR"]);
    expect(logs.filter((l) => /XAUUSD=X \(XAUUSD\) came without a price/.test(l))).toHaveLength(1);
    expect(logs.filter((l) => /returned nothing for \^NSEI/.test(l))).toHaveLength(1);
  });

  it("retries while Yahoo fails, honours Retry-After on 429, and recovers", async () => {
    yahoo.failNext(
      QUOTE_PATH,
      { status: 500, json: {} },
      { status: 500, json: {} },
      { status: 500, json: {} },
      { status: 429, json: {}, headers: { "retry-after": "0.3" } },
    );
    start();
    await until(() => quotes.length >= 5, "quotes after the failures");
    // The 500s are retried on the backoff's schedule; the 429 ends the round and the loop waits
    // the 300 ms Yahoo asked for, not its 30 ms poll interval.
    expect(waits.filter((w) => w.afterError).map((w) => w.ms)).toEqual([300]);
    expect(waits.at(-1)).toEqual({ ms: 30, afterError: false });
    expect(logs.filter((l) => /HTTP 500/.test(l))).toHaveLength(3);
    expect(logs.some((l) => /HTTP 429 \(rate limited\)/.test(l))).toBe(true);
    expect(provider?.health()).toMatchObject({
      state: "delayed",
      reconnects: 4,
      lastError: "HTTP 429 (rate limited)",
    });
  });

  it("waits the backoff's cap after a 429 without Retry-After", async () => {
    yahoo.failNext(QUOTE_PATH, { status: 429, json: {} });
    start({ backoff: { initialMs: 40, maxMs: 200 } });
    await until(() => quotes.length >= 5, "quotes after the 429");
    expect(waits.filter((w) => w.afterError).map((w) => w.ms)).toEqual([200]);
  });

  it("cuts a request Yahoo never answers after timeoutMs, and tries again", async () => {
    yahoo.failNext(QUOTE_PATH, "hang");
    start({ timeoutMs: HANG_CUT_MS });
    await until(() => quotes.length >= 5, "quotes after the hung request");
    expect(yahoo.count(QUOTE_PATH)).toBeGreaterThanOrEqual(2);
    expect(logs.some((l) => /no answer within 2 s/.test(l))).toBe(true);
    expect(provider?.health()).toMatchObject({ state: "delayed", reconnects: 1 });
  });

  it("is down while Yahoo fails, and says why", async () => {
    yahoo.route(QUOTE_PATH, () => ({ status: 503, json: {} }));
    start();
    await until(() => provider?.health().state === "down", "down");
    expect(provider?.health().lastError).toBe("HTTP 503");
    expect(quotes).toEqual([]);
  });

  it.each([
    ["bad JSON", { text: "<html>Will be right back</html>" }, /not JSON/],
    [
      "an unexpected shape",
      { json: { quoteResponse: { result: null, error: { description: "boom" } } } },
      /no quoteResponse.result \(boom\)/,
    ],
    ["a dropped connection", "drop" as const, /request failed/],
  ])("survives %s and recovers", async (_, reply, message) => {
    yahoo.failNext(QUOTE_PATH, reply);
    start();
    await until(() => quotes.length >= 5, "quotes after the failure");
    expect(logs.some((l) => message.test(l))).toBe(true);
  });

  it("fetches a new crumb when Yahoo refuses the old one", async () => {
    start();
    await until(() => quotes.length >= 5, "first quotes");
    yahoo.crumb = "crumb-2";
    yahoo.results.set("GC=F", {
      bid: 4060,
      ask: 4060.2,
      regularMarketPrice: 4060.1,
      regularMarketTime: T + 20,
    });
    await until(() => quotes.length >= 6, "a quote with the new crumb");
    expect(yahoo.crumbsIssued).toBe(2);
    expect(yahoo.count(CRUMB_PATH)).toBe(2);
    expect(logs.some((l) => /HTTP 401/.test(l))).toBe(true);
  });

  it("uses the book only in the regular session: outside it a quote is last-price-only", async () => {
    // A closed market's indicative book, 3.6 % wide: not a CME book anyone can trade.
    yahoo.results.set("GC=F", {
      bid: 3980,
      ask: 4125,
      regularMarketPrice: 4050.3,
      regularMarketTime: T,
      marketState: "CLOSED",
    });
    yahoo.results.set("SI=F", {
      bid: 50.5,
      ask: 50.6,
      regularMarketPrice: 50.55,
      regularMarketTime: T,
      marketState: "POST",
    });
    start({ keys: ["GC", "SI"] });
    await until(() => quotes.length >= 2, "both quotes");
    expect(quotes).toEqual([
      {
        source: "cme",
        key: "GC",
        ts: T * 1000,
        delayed: true,
        bid: 4050.3,
        ask: 4050.3,
        lastOnly: true,
      },
      {
        source: "cme",
        key: "SI",
        ts: T * 1000,
        delayed: true,
        bid: 50.55,
        ask: 50.55,
        lastOnly: true,
      },
    ]);
    yahoo.results.set("GC=F", {
      bid: 4050.1,
      ask: 4050.4,
      regularMarketPrice: 4050.3,
      regularMarketTime: T + 60,
      marketState: "REGULAR",
    });
    await until(() => quotes.length >= 3, "the regular session's book");
    expect(quotes[2]).toEqual({
      source: "cme",
      key: "GC",
      ts: (T + 60) * 1000,
      delayed: true,
      bid: 4050.1,
      ask: 4050.4,
    });
  });

  it("passes a negative price through (CL=F, 20 April 2020)", async () => {
    yahoo.results.set("CL=F", {
      bid: -40.32,
      ask: -37.63,
      regularMarketPrice: -37.63,
      regularMarketTime: T,
    });
    yahoo.results.set("XAUUSD=X", { regularMarketPrice: -1.5, regularMarketTime: T });
    start({ keys: ["CL", "XAUUSD"] });
    await until(() => quotes.length >= 2, "both quotes");
    expect(quotes).toEqual([
      { source: "cme", key: "CL", ts: T * 1000, delayed: true, bid: -40.32, ask: -37.63 },
      { source: "spot", key: "XAUUSD", ts: T * 1000, delayed: true, price: -1.5 },
    ]);
  });

  it("uses a configured symbol instead of the default", async () => {
    yahoo.results.set("GCJ26.CMX", { bid: 4100, ask: 4100.5, regularMarketTime: T });
    start({ keys: ["GC"], symbols: { GC: "GCJ26.CMX" } });
    await until(() => quotes.length >= 1, "the GC quote");
    expect(quotes[0]).toMatchObject({ key: "GC", bid: 4100, ask: 4100.5 });
  });
});

describe("the instruments in use on Yahoo", () => {
  const spec = (key: string) => shippedInstrument(key) as InstrumentSpec;
  const lastSymbols = () =>
    yahoo.requests
      .filter((r) => r.path === QUOTE_PATH)
      .at(-1)
      ?.query.get("symbols");

  it("asks for a month's own symbol with the exchange suffix, rolled by the IST day", async () => {
    // 23:59 IST on 29 January 2026: COMEX gold's February contract has its first notice day
    // on the 30th, so the next month is April until then and June from then on.
    let day = Date.parse("2026-01-29T18:29:00Z");
    for (const [symbol, price] of [
      ["GCJ26.CMX", 4080.5],
      ["GCM26.CMX", 4110.5],
      ["CLJ26.NYM", 71.2],
      ["BZ=F", 75.3],
      ["GCZ26.CMX", 4200.1],
    ] as const)
      yahoo.results.set(symbol, { regularMarketPrice: price, regularMarketTime: T });
    provider = createYahooProvider({
      name: "yahoo",
      keys: ["GC"],
      baseUrl: yahoo.url,
      cookieUrl: yahoo.cookieUrl,
      pollMs: 30,
      timeoutMs: 2_000,
      staleAfterMs: 60_000,
      backoff: { initialMs: 40, maxMs: 1_000 },
      log: (message) => logs.push(message),
      dateNow: () => day,
    });
    const houseGold: InstrumentSpec = {
      ...spec("GC"),
      key: "HOUSEGOLD",
      month: null,
      source: { provider: "yahoo", symbol: "GCZ26.CMX" },
    };
    const unknown: InstrumentSpec = { ...spec("ZINC"), key: "GOLDGUINEA", month: null };
    // A symbol that would split the one comma-separated request into two.
    const sneaky: InstrumentSpec = {
      ...spec("SI"),
      key: "SNEAKY",
      source: { provider: "yahoo", symbol: "SI=F,XAUUSD=X" },
    };
    provider.setInstruments?.([
      spec("GC"),
      spec("GC@next"),
      spec("CL@next"),
      spec("BZ"),
      houseGold,
      unknown,
      sneaky,
    ]);
    provider.start((quote) => quotes.push(quote));
    await until(() => quotes.length >= 5, "five quotes");
    expect(yahoo.requests.find((r) => r.path === QUOTE_PATH)?.query.get("symbols")).toBe(
      "GC=F,GCJ26.CMX,CLJ26.NYM,BZ=F,GCZ26.CMX",
    );
    const byKey = new Map(quotes.map((q) => [q.key, q]));
    expect(byKey.get("GC@next")).toMatchObject({
      source: "cme",
      bid: 4080.5,
      contract: "GCJ26",
      expiry: "2026-04-28",
    });
    expect(byKey.get("CL@next")).toMatchObject({ contract: "CLJ26", expiry: "2026-03-20" });
    expect(byKey.get("HOUSEGOLD")).toMatchObject({ contract: "GCZ26", bid: 4200.1 });
    // A front month (=F) is whatever Yahoo rolls it to: no contract is claimed for it.
    expect(byKey.get("BZ")).not.toHaveProperty("contract");
    expect(byKey.get("GC")).not.toHaveProperty("contract");
    expect(provider.health().missing).toEqual({
      GOLDGUINEA: "Yahoo has no default symbol for GOLDGUINEA: give one",
      SNEAKY: '"SI=F,XAUUSD=X" is not a Yahoo symbol',
    });

    // 00:01 IST on 30 January (still the 29th in UTC): GC@next is June now.
    day = Date.parse("2026-01-29T18:31:00Z");
    await until(
      () => quotes.some((q) => q.key === "GC@next" && q.contract === "GCM26"),
      "the roll",
    );
    expect(lastSymbols()).toBe("GC=F,GCM26.CMX,CLJ26.NYM,BZ=F,GCZ26.CMX");
    expect(quotes.find((q) => q.contract === "GCM26")).toMatchObject({
      key: "GC@next",
      bid: 4110.5,
      expiry: "2026-06-26",
    });

    // Taken out of use: the next poll no longer asks for it.
    provider.setInstruments?.([spec("GC"), spec("GC@next")]);
    const polls = yahoo.count(QUOTE_PATH);
    await until(() => yahoo.count(QUOTE_PATH) > polls + 1, "a poll after the change");
    expect(lastSymbols()).toBe("GC=F,GCM26.CMX");
    expect(provider.health()).toMatchObject({ keys: ["GC", "GC@next"] });
    expect(provider.health().missing).toBeUndefined();
  });
});
