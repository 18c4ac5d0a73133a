import { describe, expect, it } from "vitest";
import {
  type KiteInstrument,
  parseInstruments,
  pickInstrument,
} from "../src/feeds/providers/kite/instruments.ts";
import { kiteQuote } from "../src/feeds/providers/kite/kite-quote.ts";
import { KiteFrameError, parseFrame } from "../src/feeds/providers/kite/ticker-parser.ts";
import { instrumentsCsv as csv, instrumentRow as row } from "./fakes/fake-kite.ts";
import {
  frame,
  fullPacket,
  HEARTBEAT,
  indexPacket,
  ltpPacket,
  quotePacket,
} from "./fakes/kite-packets.ts";

// Segment = token & 0xff: MCX 7, CDS 3, BCD 6, indices 9.
const GOLD = (100 << 8) | 7;
const USDINR = (200 << 8) | 3;
const BSE_USDINR = (300 << 8) | 6;
const NIFTY = 256265;

describe("Kite ticker frames", () => {
  it("reads a 1-byte frame as a heartbeat", () => {
    expect(parseFrame(HEARTBEAT)).toEqual({ heartbeat: true, ticks: [], skipped: 0 });
  });

  it("reads an ltp packet in paise", () => {
    expect(parseFrame(frame(ltpPacket(GOLD, 7_654_321))).ticks).toEqual([
      { token: GOLD, mode: "ltp", lastPrice: 76543.21 },
    ]);
  });

  it("reads a quote packet's last price (quote mode has no book)", () => {
    const [tick] = parseFrame(
      frame(quotePacket(GOLD, { last: 7_650_000, close: 7_600_000 })),
    ).ticks;
    expect(tick).toEqual({ token: GOLD, mode: "quote", lastPrice: 76500 });
  });

  it("takes the best bid and ask from a full packet's first depth entries", () => {
    const packet = fullPacket(GOLD, {
      last: 7_650_100,
      exchangeTime: 1_767_600_000,
      bids: [
        { qty: 3, price: 7_650_000, orders: 2 },
        { qty: 9, price: 7_649_900, orders: 4 },
      ],
      asks: [
        { qty: 1, price: 7_650_300, orders: 1 },
        { qty: 5, price: 7_650_400, orders: 3 },
      ],
    });
    expect(packet.length).toBe(184);
    expect(parseFrame(frame(packet)).ticks).toEqual([
      {
        token: GOLD,
        mode: "full",
        lastPrice: 76501,
        bid: 76500,
        ask: 76503,
        exchangeTs: 1_767_600_000_000,
      },
    ]);
  });

  it("reads an empty best level (quantity 0) as that side absent now: null, not dropped", () => {
    // MCX CRUDEOIL with the offer side emptied: bid 72155, no ask at all.
    const { ticks } = parseFrame(
      frame(
        fullPacket(GOLD, {
          last: 7_215_000,
          bids: [{ qty: 4, price: 7_215_500, orders: 2 }],
          asks: [],
        }),
        fullPacket(GOLD, {
          last: 7_215_000,
          bids: [],
          asks: [{ qty: 1, price: 7_214_000, orders: 1 }],
        }),
        // Quantity 0 with price bytes left over: still empty.
        fullPacket(GOLD, {
          last: 7_215_000,
          bids: [{ qty: 0, price: 7_215_500, orders: 0 }],
          asks: [{ qty: 0, price: 7_216_000, orders: 0 }],
        }),
      ),
    );
    expect(ticks.map((t) => [t.bid, t.ask])).toEqual([
      [72155, null],
      [null, 72140],
      [null, null],
    ]);
  });

  it("reads negative prices as prices (MCX CRUDEOIL, 20 April 2020)", () => {
    const { ticks } = parseFrame(
      frame(
        fullPacket(GOLD, {
          last: -288_400,
          bids: [{ qty: 10, price: -290_000, orders: 3 }],
          asks: [{ qty: 5, price: -285_000, orders: 1 }],
        }),
        ltpPacket(GOLD, -100),
      ),
    );
    expect(ticks[0]).toMatchObject({ lastPrice: -2884, bid: -2900, ask: -2850 });
    expect(ticks[1]).toMatchObject({ lastPrice: -1 });
  });

  it("scales the currency segments: CDS by 10⁷, BCD by 10⁴", () => {
    const { ticks } = parseFrame(
      frame(
        fullPacket(USDINR, {
          last: 885_725_000,
          bids: [{ qty: 10, price: 885_700_000, orders: 1 }],
          asks: [{ qty: 10, price: 885_750_000, orders: 1 }],
        }),
        ltpPacket(BSE_USDINR, 885_800),
      ),
    );
    expect(ticks[0]).toMatchObject({ lastPrice: 88.5725, bid: 88.57, ask: 88.575 });
    expect(ticks[1]).toMatchObject({ lastPrice: 88.58 });
  });

  it("reads index packets of 28 and 32 bytes", () => {
    const { ticks } = parseFrame(
      frame(
        indexPacket(NIFTY, { last: 2_600_005 }),
        indexPacket(NIFTY, { last: 2_600_105, exchangeTime: 1_767_600_001 }),
      ),
    );
    expect(ticks).toEqual([
      { token: NIFTY, mode: "index", lastPrice: 26000.05 },
      { token: NIFTY, mode: "index", lastPrice: 26001.05, exchangeTs: 1_767_600_001_000 },
    ]);
  });

  it("reads several packets of different modes from one frame", () => {
    const { ticks } = parseFrame(
      frame(
        ltpPacket(GOLD, 100),
        indexPacket(NIFTY, { last: 200 }),
        quotePacket(GOLD, { last: 300 }),
      ),
    );
    expect(ticks.map((t) => [t.mode, t.lastPrice])).toEqual([
      ["ltp", 1],
      ["index", 2],
      ["quote", 3],
    ]);
  });

  it("skips a packet of unknown length and keeps the others", () => {
    const odd = Buffer.alloc(12);
    odd.writeUInt32BE(GOLD, 0);
    const parsed = parseFrame(frame(odd, ltpPacket(GOLD, 100)));
    expect(parsed.skipped).toBe(1);
    expect(parsed.ticks).toHaveLength(1);
  });

  it.each([
    ["a frame cut inside a packet", frame(ltpPacket(GOLD, 100)).subarray(0, 9)],
    [
      "a count larger than the packets",
      Buffer.concat([Buffer.from([0, 2]), frame(ltpPacket(GOLD, 1)).subarray(2)]),
    ],
    [
      "bytes after the last packet",
      Buffer.concat([frame(ltpPacket(GOLD, 1)), Buffer.from([1, 2, 3])]),
    ],
    ["an empty frame", Buffer.alloc(0)],
  ])("throws on %s", (_, bytes) => {
    expect(() => parseFrame(bytes)).toThrow(KiteFrameError);
  });
});

describe("Kite ticks as quotes", () => {
  it("gives MCX the book, marks a book-less tick last-only, and gives FX and indices a price", () => {
    expect(
      kiteQuote(
        "GOLD",
        "mcx",
        { token: GOLD, mode: "full", lastPrice: 1, bid: 2, ask: 3, exchangeTs: 9 },
        5,
      ),
    ).toEqual({
      source: "mcx",
      key: "GOLD",
      ts: 9,
      bid: 2,
      ask: 3,
    });
    expect(kiteQuote("GOLD", "mcx", { token: GOLD, mode: "quote", lastPrice: 4 }, 5)).toEqual({
      source: "mcx",
      key: "GOLD",
      ts: 5,
      bid: 4,
      ask: 4,
      lastOnly: true,
    });
    expect(
      kiteQuote(
        "USDINR",
        "fx",
        { token: USDINR, mode: "full", lastPrice: 88.5, bid: 88.4, ask: 88.6 },
        5,
      ),
    ).toEqual({
      source: "fx",
      key: "USDINR",
      ts: 5,
      price: 88.5,
    });
    expect(
      kiteQuote("NIFTY50", "index", { token: NIFTY, mode: "index", lastPrice: 26000 }, 5),
    ).toMatchObject({
      source: "index",
      price: 26000,
    });
    expect(
      kiteQuote("GOLD", "mcx", { token: GOLD, mode: "full", lastPrice: undefined }, 5),
    ).toBeUndefined();
  });

  it("sends an empty side as null, so the book loses it instead of keeping an old price", () => {
    expect(
      kiteQuote(
        "CRUDEOIL",
        "mcx",
        { token: GOLD, mode: "full", lastPrice: 1, bid: 72155, ask: null },
        5,
      ),
    ).toEqual({ source: "mcx", key: "CRUDEOIL", ts: 5, bid: 72155, ask: null });
    // Both sides empty after a trade: the book is empty now, not the last price on both sides.
    expect(
      kiteQuote(
        "CRUDEOIL",
        "mcx",
        { token: GOLD, mode: "full", lastPrice: 72150, bid: null, ask: null },
        5,
      ),
    ).toEqual({ source: "mcx", key: "CRUDEOIL", ts: 5, bid: null, ask: null });
    // No depth in the packet at all (quote mode): the last price, marked last-only.
    expect(
      kiteQuote("CRUDEOIL", "mcx", { token: GOLD, mode: "quote", lastPrice: 72150 }, 5),
    ).toEqual({
      source: "mcx",
      key: "CRUDEOIL",
      ts: 5,
      bid: 72150,
      ask: 72150,
      lastOnly: true,
    });
    // Neither a book nor a trade: the book is empty now.
    expect(
      kiteQuote(
        "CRUDEOIL",
        "mcx",
        { token: GOLD, mode: "full", lastPrice: undefined, bid: null, ask: null },
        5,
      ),
    ).toEqual({ source: "mcx", key: "CRUDEOIL", ts: 5, bid: null, ask: null });
  });
});

describe("contracts from the instruments dump", () => {
  const dump = parseInstruments(
    csv([
      row({
        token: 1,
        tradingsymbol: "GOLD26APRFUT",
        name: "GOLD",
        expiry: "2026-04-03",
        segment: "MCX-FUT",
        exchange: "MCX",
      }),
      row({
        token: 2,
        tradingsymbol: "GOLD26FEBFUT",
        name: "GOLD",
        expiry: "2026-02-05",
        segment: "MCX-FUT",
        exchange: "MCX",
      }),
      row({
        token: 3,
        tradingsymbol: "GOLDM26FEBFUT",
        name: "GOLDM",
        expiry: "2026-02-05",
        segment: "MCX-FUT",
        exchange: "MCX",
      }),
      row({
        token: 4,
        tradingsymbol: "GOLD26FEB90000CE",
        name: "GOLD",
        expiry: "2026-01-27",
        type: "CE",
        segment: "MCX-OPT",
        exchange: "MCX",
      }),
      row({
        token: 5,
        tradingsymbol: "GOLD26JANFUT",
        name: "GOLD",
        expiry: "2026-01-05",
        segment: "MCX-FUT",
        exchange: "MCX",
      }),
      row({
        token: 256265,
        tradingsymbol: "NIFTY 50",
        name: "NIFTY 50",
        type: "EQ",
        segment: "INDICES",
        exchange: "NSE",
      }),
    ]),
  );
  const gold = { exchange: "MCX", symbol: "GOLD", month: "near" } as const;
  const pick = (today: string, roll = 3) => pickInstrument(dump, gold, today, roll)?.tradingsymbol;

  it("parses Kite's CSV columns, quoted names included", () => {
    expect(dump.find((i) => i.token === 256265)).toEqual<KiteInstrument>({
      token: 256265,
      tradingsymbol: "NIFTY 50",
      name: "NIFTY 50",
      expiry: "",
      instrumentType: "EQ",
      segment: "INDICES",
      exchange: "NSE",
    });
  });

  it("picks the near-month future of the exact name, ignoring minis, options and expired contracts", () => {
    expect(pick("2026-01-10")).toBe("GOLD26FEBFUT");
  });

  it("rolls to the next contract once the near one is within the roll window", () => {
    expect(pick("2026-02-01")).toBe("GOLD26FEBFUT"); // 4 days left
    expect(pick("2026-02-02")).toBe("GOLD26APRFUT"); // 3 days left: roll
    expect(pick("2026-02-02", 0)).toBe("GOLD26FEBFUT");
  });

  it("keeps the last contract standing when every one is inside the window", () => {
    expect(pick("2026-04-02")).toBe("GOLD26APRFUT");
    expect(pick("2026-04-04")).toBeUndefined();
  });

  it("picks the monthly USDINR future, never a weekly one", () => {
    const cds = (token: number, tradingsymbol: string, expiry: string) =>
      row({ token, tradingsymbol, name: "USDINR", expiry, segment: "CDS-FUT", exchange: "CDS" });
    // NSE's weekly USDINR futures expire on Fridays before the monthly in the same month.
    const usdinr = parseInstruments(
      csv([
        cds(11, "USDINR26J09FUT", "2026-01-09"),
        cds(12, "USDINR26J16FUT", "2026-01-16"),
        cds(13, "USDINR26J23FUT", "2026-01-23"),
        cds(14, "USDINR26JANFUT", "2026-01-28"),
        cds(15, "USDINR26F06FUT", "2026-02-06"),
        cds(16, "USDINR26FEBFUT", "2026-02-25"),
      ]),
    );
    const target = { exchange: "CDS", symbol: "USDINR", month: "near" } as const;
    const pickOn = (today: string) => pickInstrument(usdinr, target, today, 3)?.tradingsymbol;
    expect(pickOn("2026-01-05")).toBe("USDINR26JANFUT"); // not the weekly expiring on the 9th
    expect(pickOn("2026-01-20")).toBe("USDINR26JANFUT"); // not the weekly expiring on the 23rd
    expect(pickOn("2026-01-26")).toBe("USDINR26FEBFUT"); // rolled: not the weekly of 6 Feb
  });

  it("finds the NIFTY 50 index by its trading symbol", () => {
    expect(
      pickInstrument(dump, { exchange: "NSE", symbol: "NIFTY 50", month: "near" }, "2026-01-10", 3)
        ?.token,
    ).toBe(256265);
  });

  it("has a row builder matching Kite's column order", () => {
    expect(
      csv([row({ token: 7, tradingsymbol: "X", name: "X", segment: "S", exchange: "E" })]),
    ).toMatch(
      /^instrument_token,exchange_token,tradingsymbol,name,last_price,expiry,strike,tick_size,lot_size,instrument_type,segment,exchange\n7,0,X,X,/,
    );
  });
});
