import { type InstrumentSpec, type Quote, shippedInstrument } from "@spreadwatch/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createHttpJsonProvider,
  type HttpJsonOptions,
} from "../src/feeds/providers/http-json/http-json.ts";
import type { Provider } from "../src/feeds/providers/provider.ts";
import { FakeHttp } from "./fakes/fake-http.ts";
import { until } from "./fakes/wait.ts";

let server: FakeHttp;
let provider: Provider | undefined;
let quotes: Quote[];
let logs: string[];
let waits: Array<{ ms: number; afterError: boolean }>;
let body: unknown;

function start(overrides: Partial<HttpJsonOptions> = {}): Provider {
  provider = createHttpJsonProvider({
    name: "gift",
    url: `${server.url}/gift`,
    headers: { authorization: "Bearer t0ken" },
    quotes: [
      { key: "GIFTNIFTY", price: "data.0.last", ts: "data.0.time" },
      { key: "CL", bid: "book.bid", ask: "book.ask", ts: "book.at" },
      { key: "NG", price: "ng" },
    ],
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
  server = await new FakeHttp().start();
  server.route("/gift", () => ({ json: body }));
  quotes = [];
  logs = [];
  waits = [];
  body = {
    data: [{ last: "26,080.55", time: "2026-01-20T09:15:00.000Z" }],
    book: { bid: 70.01, ask: "70.03", at: 1_768_900_000 },
    ng: 4.321,
  };
});

afterEach(async () => {
  await provider?.stop();
  provider = undefined;
  await server.stop();
});

describe("the http-json provider against a fake endpoint", () => {
  it("maps dot paths to quotes: numeric strings, ISO and epoch-second times, a last-only book", async () => {
    start();
    await until(() => quotes.length >= 3, "three quotes");
    expect(server.requests[0]?.headers.authorization).toBe("Bearer t0ken");
    expect(quotes[0]).toEqual({
      source: "index",
      key: "GIFTNIFTY",
      ts: Date.parse("2026-01-20T09:15:00.000Z"),
      price: 26080.55,
    });
    expect(quotes[1]).toEqual({
      source: "cme",
      key: "CL",
      ts: 1_768_900_000_000,
      bid: 70.01,
      ask: 70.03,
    });
    expect(quotes[2]).toMatchObject({
      source: "cme",
      key: "NG",
      bid: 4.321,
      ask: 4.321,
      lastOnly: true,
    });
    expect(provider?.health()).toMatchObject({
      kind: "http-json",
      state: "live",
      delayed: false,
      keys: ["GIFTNIFTY", "CL", "NG"],
    });
  });

  it("marks quotes delayed when configured so", async () => {
    start({ delayed: true, quotes: [{ key: "GIFTNIFTY", price: "data.0.last" }] });
    await until(() => quotes.length >= 1, "a quote");
    expect(quotes[0]).toMatchObject({ delayed: true });
    expect(provider?.health().state).toBe("delayed");
  });

  it("skips a key whose field is empty or missing, says so once, and keeps the others", async () => {
    body = {
      data: [{ last: "", time: null }],
      book: { bid: 70.01, ask: 70.03, at: 1_768_900_000 },
    };
    start();
    await until(() => server.count("/gift") >= 4, "four polls");
    expect(quotes.map((q) => q.key)).toEqual(["CL"]);
    expect(logs.filter((l) => /no number for GIFTNIFTY at data\.0\.last/.test(l))).toHaveLength(1);
    expect(logs.filter((l) => /no number for NG at ng/.test(l))).toHaveLength(1);
  });

  it("backs off on errors and 429, survives bad JSON, and recovers", async () => {
    server.failNext(
      "/gift",
      { status: 500, json: {} },
      { text: "{oops" },
      { status: 429, json: {}, headers: { "retry-after": "0.25" } },
    );
    start();
    await until(() => quotes.length >= 3, "quotes after the failures");
    // The 500 and the bad JSON are retried on the backoff's schedule; the 429 waits its 250 ms.
    expect(waits.filter((w) => w.afterError).map((w) => w.ms)).toEqual([250]);
    expect(logs.some((l) => /not JSON/.test(l))).toBe(true);
    expect(provider?.health()).toMatchObject({ state: "live", reconnects: 3 });
  });

  it("is down while the endpoint fails", async () => {
    server.route("/gift", () => "drop");
    start();
    await until(() => provider?.health().state === "down", "down");
    expect(provider?.health().lastError).toMatch(/request failed/);
  });
});

describe("the instruments in use on an http-json provider", () => {
  const spec = (key: string) => shippedInstrument(key) as InstrumentSpec;

  it("quotes any catalogue key it maps, by the key's group, and says which it cannot", async () => {
    body = {
      zinc: { bid: 300.05, ask: 300.15 },
      al: { last: 250.5 },
      idx: 1234.5,
    };
    provider = createHttpJsonProvider({
      name: "broker",
      url: `${server.url}/gift`,
      quotes: [
        { key: "ZINC", bid: "zinc.bid", ask: "zinc.ask" },
        // Not in the catalogue until an admin adds it: its group is unknown, so it waits.
        { key: "MYINDEX", price: "idx" },
      ],
      pollMs: 30,
      timeoutMs: 2_000,
      staleAfterMs: 60_000,
      backoff: { initialMs: 40, maxMs: 1_000 },
      log: (message) => logs.push(message),
    });
    expect(provider.health().missing).toEqual({
      MYINDEX: "MYINDEX is not in the instrument catalogue",
    });
    provider.start((quote) => quotes.push(quote));
    await until(() => quotes.length >= 1, "ZINC's quote");
    expect(quotes[0]).toMatchObject({ source: "mcx", key: "ZINC", bid: 300.05, ask: 300.15 });

    const myIndex: InstrumentSpec = { ...spec("NIFTY50"), key: "MYINDEX" };
    // An instrument whose own source is http-json names its price's dot path.
    const aluminium: InstrumentSpec = {
      ...spec("ALUMINIUM"),
      source: { provider: "http-json", symbol: "al.last" },
    };
    provider.setInstruments?.([spec("ZINC"), myIndex, aluminium, spec("LEAD")]);
    expect(provider.health().missing).toEqual({
      LEAD: "no mapping for LEAD in this provider's quotes",
    });
    await until(
      () => quotes.some((q) => q.key === "MYINDEX") && quotes.some((q) => q.key === "ALUMINIUM"),
      "the added keys' quotes",
    );
    expect(quotes.find((q) => q.key === "MYINDEX")).toMatchObject({
      source: "index",
      price: 1234.5,
    });
    expect(quotes.find((q) => q.key === "ALUMINIUM")).toMatchObject({
      source: "mcx",
      bid: 250.5,
      ask: 250.5,
      lastOnly: true,
    });
    expect(provider.health().keys).toEqual(["ZINC", "MYINDEX", "ALUMINIUM", "LEAD"]);
  });
});
