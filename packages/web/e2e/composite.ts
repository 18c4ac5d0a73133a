import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FakeHttp } from "../../api/test/fakes/fake-http.ts";
import { FakeYahoo } from "../../api/test/fakes/fake-yahoo.ts";
import { type RunningApp, startApp } from "./harness.ts";

/** A provider's health goes stale after this long without a new quote. */
export const STALE_AFTER_SECONDS = 3;
const POLL = { pollSeconds: 0.2, backoff: { initialSeconds: 0.1, maxSeconds: 0.4 } };
/** Yahoo's futures run about 15 minutes behind the exchange. */
const YAHOO_DELAY_S = 15 * 60;

const MCX = { GOLD: 75980, SILVER: 89210, COPPER: 768.9, NATURALGAS: 262.1, CRUDEOIL: 5998 };
const MCX_SPREAD = { GOLD: 10, SILVER: 20, COPPER: 0.2, NATURALGAS: 0.3, CRUDEOIL: 5 };
const SINGLE = { GIFTNIFTY: 24150.5, USDINR: 84 };
/** Nothing listens here: the Kite provider never gets a token, so it never calls out. */
const NOWHERE = "http://127.0.0.1:9";

/** The server (its `url`; `stop` also stops the fakes) and the fakes it reads. */
export interface CompositeApp extends RunningApp {
  /** CME futures and spot metals, delayed; SI=F comes without a book (last price only). */
  yahoo: FakeYahoo;
  /** A broker's JSON endpoint: MCX futures, GIFT NIFTY and USDINR, live. */
  broker: FakeHttp;
  // The third provider, "kite" (NIFTY 50), has an API key but no day's login: not configured.
  /** Both fakes answer with moving prices, as markets do. */
  resume(): void;
  /** Yahoo keeps answering with the same prices: a frozen source. */
  freezeYahoo(): void;
  /** The broker answers 502 until `resume`. */
  failBroker(): void;
  stop(): Promise<void>;
}

/**
 * The real server with FEED=composite: "yahoo" and "broker" are the api tests' fakes on loopback,
 * "kite" waits for a login that never comes; a temp MARKET_DATA_CONFIG with short poll and stale
 * windows names them.
 */
export async function startComposite(): Promise<CompositeApp> {
  const yahoo = await new FakeYahoo().start();
  const broker = await new FakeHttp().start();
  let tick = 0;
  const moveYahoo = () => {
    tick++;
    const time = Math.floor(Date.now() / 1000) - YAHOO_DELAY_S;
    const at = (bid: number, width: number) => ({
      bid: bid + tick / 100,
      ask: bid + width + tick / 100,
      regularMarketTime: time,
    });
    yahoo.results.set("GC=F", at(2650, 0.5));
    yahoo.results.set("SI=F", { regularMarketPrice: 31.25 + tick / 1000, regularMarketTime: time });
    yahoo.results.set("HG=F", at(4.1525, 0.001));
    yahoo.results.set("NG=F", at(3.112, 0.003));
    yahoo.results.set("CL=F", at(71.42, 0.03));
    yahoo.results.set("XAUUSD=X", {
      regularMarketPrice: 2648.1 + tick / 100,
      regularMarketTime: time,
    });
    yahoo.results.set("XAGUSD=X", { regularMarketPrice: 31.3, regularMarketTime: time });
  };
  const brokerQuotes = () => {
    tick++;
    const books = Object.fromEntries(
      Object.entries(MCX).map(([key, bid]) => [
        key,
        { bid: bid + tick / 100, ask: bid + MCX_SPREAD[key as keyof typeof MCX] + tick / 100 },
      ]),
    );
    return { json: { ...books, ...SINGLE } };
  };
  const resume = () => {
    yahoo.beforeQuote = moveYahoo;
    broker.route("/quotes", brokerQuotes);
  };
  resume();

  const dir = await mkdtemp(join(tmpdir(), "spreadwatch-e2e-md-"));
  const config = join(dir, "market-data.json");
  await writeFile(
    config,
    JSON.stringify({
      staleAfterSeconds: STALE_AFTER_SECONDS,
      providers: {
        yahoo: {
          type: "yahoo",
          keys: ["GC", "SI", "HG", "NG", "CL", "XAUUSD", "XAGUSD"],
          baseUrl: yahoo.url,
          cookieUrl: yahoo.cookieUrl,
          ...POLL,
        },
        kite: { type: "kite", keys: ["NIFTY50"] },
        broker: {
          type: "http-json",
          url: `${broker.url}/quotes`,
          quotes: [
            ...Object.keys(MCX).map((key) => ({ key, bid: `${key}.bid`, ask: `${key}.ask` })),
            ...Object.keys(SINGLE).map((key) => ({ key, price: key })),
          ],
          ...POLL,
        },
      },
    }),
  );
  const app = await startApp({
    feed: "composite",
    env: {
      MARKET_DATA_CONFIG: config,
      KITE_API_KEY: "e2e-kite-key",
      KITE_API_SECRET: "e2e-kite-secret",
      KITE_API_ROOT: NOWHERE,
      KITE_WS_ROOT: NOWHERE.replace("http", "ws"),
      KITE_LOGIN_URL: NOWHERE,
    },
  }).catch(async (error) => {
    await Promise.all([yahoo.stop(), broker.stop(), rm(dir, { recursive: true, force: true })]);
    throw error;
  });
  return {
    url: app.url,
    yahoo,
    broker,
    resume,
    freezeYahoo: () => {
      yahoo.beforeQuote = undefined;
    },
    failBroker: () => {
      broker.route("/quotes", () => ({ status: 502, json: { error: "bad gateway" } }));
    },
    async stop() {
      await app.stop();
      await Promise.all([yahoo.stop(), broker.stop()]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
