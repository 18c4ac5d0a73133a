// Net / lot of a spread of one's own (docs/formulas.md, "Net / lot"): a definition whose legs
// have lots carries `perLot` in /api/calculations, tRPC's market.calculations and the stream,
// the very numbers core's definitionPerLot gives for the entry; one without lots has none.
import {
  defaultCostRates,
  definitionPerLot,
  type SpreadLegDefinition,
  shippedInstrument,
} from "@spreadwatch/core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { MarketSnapshot } from "../src/market/hub.ts";
import type { MarketStreamMessage } from "../src/stream/delta.ts";
import { signIn, startWithTrader } from "./fakes/signed-in-trader.ts";
import type { HttpClient } from "./http-client.ts";
import { ADMIN, type manualFeed, type TestServer } from "./server.ts";
import { applyMessage, dataEvents } from "./stream-state.ts";

let server: TestServer;
let trader: HttpClient;
let admin: HttpClient;
let feed: ReturnType<typeof manualFeed>;

const FX = 88.6;

beforeAll(async () => {
  ({ server, trader } = await startWithTrader());
  admin = await signIn(server, ADMIN.username, ADMIN.password);
  feed = server.feed as ReturnType<typeof manualFeed>;
});
afterAll(() => server.stop());

function quote(n: number) {
  feed.push({ source: "mcx", key: "GOLD", bid: 127_000 + n, ask: 127_020 + n, ts: n });
  feed.push({ source: "mcx", key: "GOLD@next", bid: 127_500 + n, ask: 127_540 + n, ts: n });
  feed.push({ source: "mcx", key: "SILVER", bid: 151_200 - n, ask: 151_260 - n, ts: n });
  feed.push({ source: "cme", key: "GC", bid: 4012 + n / 10, ask: 4012.6 + n / 10, ts: n });
  feed.push({ source: "fx", key: "USDINR", price: FX, ts: n });
}

async function create(client: HttpClient, body: object) {
  const { status, body: created } = await client.post("/api/spreads", body);
  expect(status, JSON.stringify(created)).toBe(201);
  return created as { symbol: string; legs: SpreadLegDefinition[] };
}

type Entry = { spread: number; legs: Record<string, { price: number }>; perLot?: unknown };

/** The entry once published with `n`'s prices (definitions publish at most once a second). */
async function entryAt(client: HttpClient, symbol: string, spread: number): Promise<Entry> {
  return vi.waitFor(
    async () => {
      const entry = (await client.get("/api/calculations")).body[symbol] as Entry | undefined;
      expect(entry?.spread).toBe(spread);
      return entry as Entry;
    },
    { timeout: 10_000, interval: 100 },
  );
}

/**
 * The calculations `client`'s stream holds once it carries `symbol`, as a browser folds them: a
 * user's private entries come in a frame of their own after everybody's snapshot.
 */
async function streamed(client: HttpClient, symbol: string): Promise<Record<string, Entry>> {
  const abort = new AbortController();
  const res = await fetch(`${server.url}/api/trpc/market.onSnapshot`, {
    headers: { cookie: client.cookieHeader },
    signal: abort.signal,
  });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended before it carried ${symbol}`);
      text += decoder.decode(value, { stream: true });
      const messages = dataEvents(text).map((json) => JSON.parse(json) as MarketStreamMessage);
      const state = messages.reduce<MarketSnapshot | undefined>(applyMessage, undefined);
      const calculations = state?.calculations as unknown as Record<string, Entry> | undefined;
      if (calculations?.[symbol]) return calculations;
    }
  } finally {
    abort.abort();
  }
}

const core = (legs: SpreadLegDefinition[], entry: Entry) =>
  definitionPerLot({ legs }, entry, FX, defaultCostRates(), shippedInstrument);

describe("a definition's perLot", () => {
  it("is core's for a private MCX calendar with lots, in REST and tRPC; absent without lots", async () => {
    const calendar = await create(trader, {
      name: "Gold near/next, 1 lot each",
      legs: [
        { name: "a", instrument: "GOLD", lots: 1 },
        { name: "b", instrument: "GOLD@next", lots: 1 },
      ],
      formula: "a - b",
    });
    const ratio = await create(trader, {
      name: "Gold/silver",
      legs: [
        { name: "g", instrument: "GOLD" },
        { name: "s", instrument: "SILVER" },
      ],
      formula: "g / s",
    });
    quote(1);
    // BUY takes a at its ask and b at its bid.
    const buy = await entryAt(trader, `${calendar.symbol}_BUY`, 127_021 - 127_501);
    const expected = core(calendar.legs, buy);
    expect(expected).toBeDefined();
    // GOLD's lot is 1 kg, quoted per 10 g: ₹100 a point on one lot.
    expect(expected?.units).toBe(100);
    expect(buy.perLot).toEqual(expected);
    expect(buy.perLot).toMatchObject({ grossInr: -48_000, units: 100 });
    const sell = await entryAt(trader, `${calendar.symbol}_SELL`, 127_001 - 127_541);
    expect(sell.perLot).toEqual(core(calendar.legs, sell));

    const trpc = (await trader.get("/api/trpc/market.calculations")).body.result.data;
    expect(trpc[`${calendar.symbol}_BUY`].perLot).toEqual(buy.perLot);
    // The stream's entry (its frames may be a version behind /api/calculations): core's numbers.
    const stream = await streamed(trader, `${calendar.symbol}_BUY`);
    const streamedBuy = stream[`${calendar.symbol}_BUY`] as Entry;
    expect(streamedBuy.perLot).toEqual(core(calendar.legs, streamedBuy));
    expect(streamedBuy.perLot).toMatchObject({ units: 100 });
    expect(stream[`${ratio.symbol}_BUY`]).not.toHaveProperty("perLot");

    const plain = (await trader.get("/api/calculations")).body[`${ratio.symbol}_BUY`];
    expect(plain).toBeDefined();
    expect(plain).not.toHaveProperty("perLot");
    expect(trpc[`${ratio.symbol}_BUY`]).not.toHaveProperty("perLot");
  });

  it("costs a US leg's fees at USDINR for everybody's shared definition, and follows the prices", async () => {
    const parity = await create(admin, {
      name: "Gold MCX/CME",
      legs: [
        { name: "m", instrument: "GOLD", lots: 1 },
        { name: "c", instrument: "GC", lots: 3 },
        { name: "fx", instrument: "USDINR" },
      ],
      formula: "m - c * fx * 10 / TROY_OUNCE_GRAMS",
      shared: true,
    });
    quote(2);
    const symbol = `${parity.symbol}_BUY`;
    const first = await vi.waitFor(
      async () => {
        const entry = (await trader.get("/api/calculations")).body[symbol] as Entry | undefined;
        expect(entry?.legs.m?.price).toBe(127_022);
        return entry as Entry;
      },
      { timeout: 10_000, interval: 100 },
    );
    const expected = core(parity.legs, first);
    // 3 GC contracts a round trip, at $2.5 a side… converted at the USDINR mid.
    expect(expected?.breakdown.cmeUsd).toBeGreaterThan(0);
    expect(first.perLot).toEqual(expected);
    // Everybody's entry: in the frame every client shares.
    const shared = (await streamed(trader, symbol))[symbol] as Entry;
    expect(shared.perLot).toEqual(core(parity.legs, shared));
    expect(shared.perLot).toMatchObject({ units: 100 });

    quote(40);
    const later = await vi.waitFor(
      async () => {
        const entry = (await trader.get("/api/calculations")).body[symbol] as Entry | undefined;
        expect(entry?.legs.m?.price).toBe(127_060);
        return entry as Entry;
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(later.perLot).toEqual(core(parity.legs, later));
    expect(later.perLot).not.toEqual(first.perLot);
  });
});
