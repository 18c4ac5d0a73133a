import { QUOTE_KEYS, QUOTE_SOURCES, type Quote } from "@spreadwatch/core";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config/index.ts";
import { seededRandom } from "../feeds/simulator/random.ts";
import { MarketHub } from "../market/hub.ts";
import { dutiesFrom } from "../server.ts";
import { diffSnapshots, diffTouched, Touched } from "./delta.ts";

const duties = dutiesFrom(loadConfig({ DATA_DIR: "/nonexistent" }));

/** A quote of any source and key, sometimes a crossed or one-sided book, a repeat, or junk. */
function randomQuote(random: () => number, ts: number): Quote {
  const source = QUOTE_SOURCES[Math.floor(random() * QUOTE_SOURCES.length)] as Quote["source"];
  const keys = QUOTE_KEYS[source];
  const key = keys[Math.floor(random() * keys.length)] as string;
  const price = 50 + Math.round(random() * 4) * 25;
  if (source !== "cme" && source !== "mcx") return { source, key, price, ts };
  const roll = random();
  if (roll < 0.1) return { source, key, bid: price + 10, ask: price, ts }; // crossed: no spread
  if (roll < 0.2) return { source, key, bid: null, ts }; // one side empties
  return { source, key, bid: price, ask: price + 1, ts };
}

describe("diffTouched", () => {
  it("makes the same delta as diffing whole snapshots, over runs of random quotes", () => {
    const random = seededRandom(11);
    const hub = new MarketHub(duties);
    let touched = new Touched();
    hub.subscribe((update) => touched.add(update.quote, update.symbols));
    let from = hub.snapshot();
    let deltas = 0;
    for (let ts = 1; ts <= 3_000; ts++) {
      hub.ingest(randomQuote(random, ts));
      // Versions of 1–6 quotes, as a burst or a coalesced interval makes them.
      if (random() < 0.3) {
        const to = hub.snapshot();
        const delta = diffTouched(from, to, touched);
        expect(delta).toEqual(diffSnapshots(from, to));
        if (Object.keys(delta.calculations).length > 1) deltas++;
        from = to;
        touched = new Touched();
      }
    }
    // The run moved spreads (and removed some), not only prices.
    expect(deltas).toBeGreaterThan(100);
  });
});

describe("MarketHub snapshots", () => {
  it("carry perLot on each entry, computed for the changed symbols only", () => {
    const hub = new MarketHub(duties);
    hub.ingest({ source: "fx", key: "USDINR", price: 84, ts: 1 });
    hub.ingest({ source: "cme", key: "GC", bid: 2650, ask: 2651, ts: 1 });
    hub.ingest({ source: "mcx", key: "GOLD", bid: 72_100, ask: 72_120, ts: 1 });
    hub.ingest({ source: "cme", key: "SI", bid: 31, ask: 31.1, ts: 1 });
    hub.ingest({ source: "mcx", key: "SILVER", bid: 88_000, ask: 88_100, ts: 1 });
    const first = hub.snapshot();
    expect(first.calculations.GC_BUY?.perLot?.netInr).toEqual(expect.any(Number));
    expect(JSON.parse(JSON.stringify(first.calculations)).SI_SELL.perLot).toBeDefined();
    hub.ingest({ source: "cme", key: "GC", bid: 2660, ask: 2661, ts: 2 });
    const second = hub.snapshot();
    // Silver did not move: the very same entry object is shared by both versions.
    expect(second.calculations.SI_BUY).toBe(first.calculations.SI_BUY);
    expect(second.calculations.GC_BUY).not.toBe(first.calculations.GC_BUY);
    expect(second.calculations.GC_BUY?.spread).not.toBe(first.calculations.GC_BUY?.spread);
    expect(second.calculations.GC_BUY?.perLot).not.toEqual(first.calculations.GC_BUY?.perLot);
    expect(second.calculations.timestamp).toBe(2);
  });
});
