import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultDuties } from "@spreadwatch/core";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config/index.ts";
import { createFeed } from "../src/feeds/index.ts";
import {
  loadMarketDataConfig,
  MarketDataConfigError,
  parseMarketDataConfig,
  silenceSecondsOf,
} from "../src/feeds/providers/config-file.ts";
import { runMain } from "./server.ts";

const dir = mkdtempSync(join(tmpdir(), "spreadwatch-mdconfig-"));

function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

const parse = (json: unknown, env: Record<string, string> = {}) => parseMarketDataConfig(json, env);
const problem = (json: unknown, env: Record<string, string> = {}) => {
  try {
    parse(json, env);
  } catch (error) {
    expect(error).toBeInstanceOf(MarketDataConfigError);
    return (error as Error).message;
  }
  throw new Error("expected the config to be refused");
};

describe("the market data config file", () => {
  it("defaults to Kite for MCX, NIFTY 50 and USDINR and Yahoo for CME and spot", () => {
    const config = loadMarketDataConfig(undefined, {});
    expect(Object.keys(config.providers)).toEqual(["kite", "yahoo"]);
    expect(config.providers.kite).toMatchObject({
      type: "kite",
      keys: ["GOLD", "SILVER", "COPPER", "NATURALGAS", "CRUDEOIL", "USDINR", "NIFTY50"],
      rollDaysBeforeExpiry: 3,
    });
    expect(config.providers.yahoo).toMatchObject({
      type: "yahoo",
      keys: ["GC", "SI", "HG", "NG", "CL", "XAUUSD", "XAGUSD"],
      pollSeconds: 5,
      baseUrl: "https://query1.finance.yahoo.com",
    });
    // Silence windows come from FEED_SILENCE_SECONDS unless the file says otherwise.
    expect(config.silenceSeconds).toBeUndefined();
    expect(config.providers.kite?.silenceSeconds).toBeUndefined();
    expect(silenceSecondsOf(config, 10)).toBe(10);
  });

  it("takes a provider's silenceSeconds over the file's, and the file's over FEED_SILENCE_SECONDS", () => {
    const config = parse({
      silenceSeconds: 30,
      providers: {
        kite: { type: "kite", silenceSeconds: 5 },
        yahoo: { type: "yahoo", staleAfterSeconds: 120 },
        gift: { type: "http-json", url: "http://x", quotes: [{ key: "GIFTNIFTY", price: "p" }] },
      },
    });
    const file = silenceSecondsOf(config, 10);
    expect(file).toBe(30);
    expect(silenceSecondsOf(config.providers.kite as never, file)).toBe(5);
    // staleAfterSeconds is the older name, still read.
    expect(silenceSecondsOf(config.providers.yahoo as never, file)).toBe(120);
    expect(silenceSecondsOf(config.providers.gift as never, file)).toBe(30);
  });

  it("reads a full example", () => {
    const config = parse(
      {
        staleAfterSeconds: 30,
        providers: {
          zerodha: { type: "kite", rollDaysBeforeExpiry: 5, keys: ["GOLD", "CRUDEOIL"] },
          yahoo: {
            type: "yahoo",
            keys: ["GC", "CL", "XAUUSD"],
            symbols: { GC: "GCJ26.CMX" },
            pollSeconds: 10,
          },
          gift: {
            type: "http-json",
            url: "https://broker.example/gift",
            // biome-ignore lint/suspicious/noTemplateCurlyInString: the config file's own ${VAR} syntax
            headers: { Authorization: "Bearer ${GIFT_TOKEN}" },
            quotes: [{ key: "GIFTNIFTY", price: "data.last", ts: "data.time" }],
          },
        },
      },
      { GIFT_TOKEN: "t0k" },
    );
    expect(config.providers.gift).toMatchObject({
      headers: { Authorization: "Bearer t0k" },
      pollSeconds: 5,
    });
    expect(config.providers.yahoo).toMatchObject({ symbols: { GC: "GCJ26.CMX" } });
  });

  it("takes any catalogue key: other months, minis, base metals, Brent, an admin's own", () => {
    const config = parse({
      providers: {
        kite: { type: "kite", keys: ["GOLD", "GOLD@next", "GOLDM", "ZINC", "GOLDGUINEA"] },
        yahoo: {
          type: "yahoo",
          keys: ["GC@far", "BZ", "MGC", "HOUSEGOLD"],
          symbols: { HOUSEGOLD: "GCZ26.CMX" },
        },
        feed: {
          type: "http-json",
          url: "http://x",
          quotes: [
            { key: "ALUMINIUM", bid: "al.bid", ask: "al.ask" },
            { key: "MYINDEX", price: "idx" },
          ],
        },
      },
    });
    expect(config.providers.kite).toMatchObject({
      keys: ["GOLD", "GOLD@next", "GOLDM", "ZINC", "GOLDGUINEA"],
    });
    expect(config.providers.yahoo).toMatchObject({ keys: ["GC@far", "BZ", "MGC", "HOUSEGOLD"] });
  });

  it.each([
    [{ providers: {} }, "providers: must name at least one provider"],
    [
      { providers: { a: { type: "bloomberg" } } },
      "providers.a.type: must be one of: kite, yahoo, http-json",
    ],
    [
      { providers: { y: { type: "yahoo", polSeconds: 3 } } },
      'providers.y: Unrecognized key: "polSeconds"',
    ],
    [
      { providers: { y: { type: "yahoo", pollSeconds: 1 } } },
      "providers.y.pollSeconds: must be at least 2 against Yahoo",
    ],
    [
      { providers: { y: { type: "yahoo", pollSeconds: -1 } } },
      "providers.y.pollSeconds: must be more than 0 seconds",
    ],
    [
      { providers: { y: { type: "yahoo", keys: ["GIFTNIFTY"] } } },
      "providers.y.symbols.GIFTNIFTY: Yahoo has no default symbol for GIFTNIFTY: give one",
    ],
    [
      { providers: { y: { type: "yahoo", keys: ["GOLDX"] } } },
      "providers.y.symbols.GOLDX: Yahoo has no default symbol for GOLDX: give one",
    ],
    [
      { providers: { y: { type: "yahoo", keys: ["gold x"] } } },
      "providers.y.keys.0: must be an instrument key such as GOLD, GOLD@next or ZINC",
    ],
    [
      { providers: { k: { type: "kite", keys: ["GOLD@later"] } } },
      "providers.k.keys.0: must be an instrument key such as GOLD, GOLD@next or ZINC",
    ],
    [
      { providers: { k: { type: "kite", keys: ["GC"] } } },
      "providers.k.keys.0: GC: Kite does not list COMEX instruments",
    ],
    [
      {
        providers: {
          g: { type: "http-json", url: "http://x", quotes: [{ key: "XAUUSD", bid: "b" }] },
        },
      },
      "providers.g.quotes.0.bid: XAUUSD is a single price: map price, not bid/ask",
    ],
    [
      {
        providers: {
          k: {
            type: "kite",
            hours: { timeZone: "Mars/Olympus", days: [1], open: "09:00", close: "17:00" },
          },
        },
      },
      "providers.k.hours",
    ],
    [
      { providers: { k: { type: "kite" }, y: { type: "yahoo", keys: ["GC", "USDINR"] } } },
      "providers.y: USDINR is already taken from k; each key comes from one provider",
    ],
    [
      {
        providers: {
          g: { type: "http-json", url: "not a url", quotes: [{ key: "GIFTNIFTY", price: "x" }] },
        },
      },
      "providers.g.url",
    ],
    [
      { providers: { g: { type: "http-json", url: "http://x", quotes: [{ key: "GIFTNIFTY" }] } } },
      "providers.g.quotes.0.price: is required (or bid and ask)",
    ],
    [
      {
        providers: {
          g: { type: "http-json", url: "http://x", quotes: [{ key: "GIFTNIFTY", bid: "b" }] },
        },
      },
      "providers.g.quotes.0.bid: GIFTNIFTY is a single price: map price, not bid/ask",
    ],
    [
      {
        providers: {
          g: { type: "http-json", url: "http://x", quotes: [{ key: "CL", price: "a..b" }] },
        },
      },
      "providers.g.quotes.0.price: must be a dot path such as data.last",
    ],
    [
      {
        providers: {
          g: {
            type: "http-json",
            url: "http://x",
            // biome-ignore lint/suspicious/noTemplateCurlyInString: the config file's own ${VAR} syntax
            headers: { A: "${NOPE}" },
            quotes: [{ key: "CL", price: "p" }],
          },
        },
      },
      "providers.g.headers.A: environment variable NOPE is not set",
    ],
    [
      { providers: { k: { type: "kite", silenceSeconds: 0 } } },
      "providers.k.silenceSeconds: must be more than 0 seconds",
    ],
    [
      { providers: { k: { type: "kite", silenceSeconds: 5, staleAfterSeconds: 5 } } },
      "providers.k.staleAfterSeconds: is the older name of silenceSeconds: give one of them",
    ],
    [
      {
        providers: {
          k1: { type: "kite", keys: ["GOLD"] },
          k2: { type: "kite", keys: ["SILVER"] },
          k3: { type: "kite", keys: ["COPPER"] },
          k4: { type: "kite", keys: ["CRUDEOIL"] },
        },
      },
      "providers: 4 kite providers (k1, k2, k3, k4) would open 4 ticker connections with one KITE_API_KEY; Kite allows at most 3 per API key",
    ],
  ])("refuses %j with one line", (json, message) => {
    const text = problem(json);
    expect(text).toContain(message);
    expect(text).not.toContain("\n");
  });

  it("accepts three kite providers: one ticker connection each, within Kite's limit", () => {
    expect(() =>
      parse({
        providers: {
          k1: { type: "kite", keys: ["GOLD"] },
          k2: { type: "kite", keys: ["SILVER"] },
          k3: { type: "kite", keys: ["COPPER"] },
        },
      }),
    ).not.toThrow();
  });

  it("lets a test double or proxy be polled faster than Yahoo allows", () => {
    expect(() =>
      parse({
        providers: { y: { type: "yahoo", baseUrl: "http://127.0.0.1:1", pollSeconds: 0.05 } },
      }),
    ).not.toThrow();
  });

  it("names the file when it is missing or not JSON", () => {
    expect(() => loadMarketDataConfig(join(dir, "nope.json"), {})).toThrow(
      /nope\.json: file not found/,
    );
    expect(() => loadMarketDataConfig(file("bad.json", "{"), {})).toThrow(
      /bad\.json: not valid JSON/,
    );
  });
});

describe("configuration from the environment", () => {
  it("accepts FEED=composite and the Kite settings, with Kite's endpoints by default", () => {
    const config = loadConfig({ FEED: "composite", KITE_API_KEY: "k", KITE_API_SECRET: "s" });
    expect(config.feed).toBe("composite");
    expect(config.kite).toEqual({
      apiKey: "k",
      apiSecret: "s",
      apiRoot: "https://api.kite.trade",
      wsRoot: "wss://ws.kite.trade",
      loginUrl: "https://kite.zerodha.com/connect/login",
    });
  });

  it("notices silence in 10 s by default; FEED_SILENCE_SECONDS changes it", () => {
    expect(loadConfig({}).feedSilenceMs).toBe(10_000);
    const noKite = { kiteSessions: { read: async () => ({ kind: "missing" as const }) } };
    const simulator = createFeed(
      loadConfig({ FEED_SILENCE_SECONDS: "3" }),
      defaultDuties(),
      noKite,
    );
    expect(simulator).toMatchObject({ name: "simulator", staleAfterMs: 3_000 });
    expect(loadConfig({ FEED_SILENCE_SECONDS: "2.5" }).feedSilenceMs).toBe(2_500);
    for (const bad of ["0", "-1", "soon"])
      expect(() => loadConfig({ FEED_SILENCE_SECONDS: bad })).toThrow(
        new ConfigError(
          `Invalid FEED_SILENCE_SECONDS: must be a number of seconds > 0 (a feed silent this long is stale) (got "${bad}")`,
        ),
      );
  });

  it("wants both halves of the Kite app credentials and never echoes them", () => {
    expect(() => loadConfig({ KITE_API_KEY: "my-key" })).toThrow(
      new ConfigError(
        "Invalid KITE_API_SECRET: is required when the other of KITE_API_KEY and KITE_API_SECRET is set",
      ),
    );
    expect(() => loadConfig({ KITE_API_ROOT: "nope" })).toThrow(
      /Invalid KITE_API_ROOT: must be a URL/,
    );
  });
});

describe("a bad market data config stops the start with one clear line", () => {
  it.each([
    [
      { MARKET_DATA_CONFIG: "/nonexistent/md.json" },
      "spreadwatch: Invalid MARKET_DATA_CONFIG: /nonexistent/md.json: file not found",
    ],
    [
      {
        MARKET_DATA_CONFIG: file("dup.json", {
          providers: { a: { type: "kite" }, b: { type: "kite" } },
        }),
      },
      /^spreadwatch: Invalid MARKET_DATA_CONFIG: .*dup\.json: providers\.b: GOLD is already taken from a; each key comes from one provider$/,
    ],
    [
      {
        MARKET_DATA_CONFIG: file("kites.json", {
          providers: Object.fromEntries(
            ["GOLD", "SILVER", "COPPER", "CRUDEOIL"].map((k) => [k, { type: "kite", keys: [k] }]),
          ),
        }),
      },
      /^spreadwatch: Invalid MARKET_DATA_CONFIG: .*kites\.json: providers: 4 kite providers \(GOLD, SILVER, COPPER, CRUDEOIL\) would open 4 ticker connections with one KITE_API_KEY; Kite allows at most 3 per API key: put their keys in fewer kite providers$/,
    ],
  ])("%j", async (env, line) => {
    const main = runMain({ DATA_DIR: dir, FEED: "composite", ...env });
    expect(await main.exited).toBe(1);
    const stderr = main.stderr().trim();
    if (typeof line === "string") expect(stderr).toBe(line);
    else expect(stderr).toMatch(line);
    expect(main.stdout()).not.toMatch(/listening/);
  });
});
