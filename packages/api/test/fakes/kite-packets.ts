// Kite ticker packets built byte by byte from the published layout (big-endian), independent of
// the parser under test: offsets are written out here, not imported.

export interface DepthLevel {
  qty: number;
  price: number;
  orders: number;
}

/** mode ltp, 8 bytes: token, last price. */
export function ltpPacket(token: number, last: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeUInt32BE(token, 0);
  b.writeInt32BE(last, 4);
  return b;
}

export interface QuoteFields {
  last: number;
  lastQty?: number;
  avgPrice?: number;
  volume?: number;
  buyQty?: number;
  sellQty?: number;
  open?: number;
  high?: number;
  low?: number;
  close?: number;
}

/** mode quote, 44 bytes: token, ltp, ltq, atp, volume, buy qty, sell qty, open, high, low, close. */
export function quotePacket(token: number, f: QuoteFields): Buffer {
  const b = Buffer.alloc(44);
  b.writeUInt32BE(token, 0);
  b.writeInt32BE(f.last, 4);
  b.writeInt32BE(f.lastQty ?? 1, 8);
  b.writeInt32BE(f.avgPrice ?? f.last, 12);
  b.writeInt32BE(f.volume ?? 1000, 16);
  b.writeInt32BE(f.buyQty ?? 500, 20);
  b.writeInt32BE(f.sellQty ?? 400, 24);
  b.writeInt32BE(f.open ?? f.last, 28);
  b.writeInt32BE(f.high ?? f.last, 32);
  b.writeInt32BE(f.low ?? f.last, 36);
  b.writeInt32BE(f.close ?? f.last, 40);
  return b;
}

export interface FullFields extends QuoteFields {
  lastTradeTime?: number;
  oi?: number;
  oiDayHigh?: number;
  oiDayLow?: number;
  /** Epoch seconds. */
  exchangeTime?: number;
  bids?: DepthLevel[];
  asks?: DepthLevel[];
}

/**
 * mode full, 184 bytes: the quote fields, then last trade time (44), OI (48), OI day high (52),
 * OI day low (56), exchange timestamp (60), then 10 depth entries from 64 — 5 bids, then 5 asks,
 * 12 bytes each: quantity int32, price int32, orders int16, 2 bytes padding.
 */
export function fullPacket(token: number, f: FullFields): Buffer {
  const b = Buffer.alloc(184);
  quotePacket(token, f).copy(b, 0);
  b.writeUInt32BE(f.lastTradeTime ?? 0, 44);
  b.writeUInt32BE(f.oi ?? 0, 48);
  b.writeUInt32BE(f.oiDayHigh ?? 0, 52);
  b.writeUInt32BE(f.oiDayLow ?? 0, 56);
  b.writeUInt32BE(f.exchangeTime ?? 0, 60);
  const levels = [...pad(f.bids ?? []), ...pad(f.asks ?? [])];
  levels.forEach((level, i) => {
    const at = 64 + i * 12;
    b.writeInt32BE(level.qty, at);
    b.writeInt32BE(level.price, at + 4);
    b.writeInt16BE(level.orders, at + 8);
    // bytes at + 10 and at + 11 are padding
    b.writeUInt16BE(0xbeef, at + 10);
  });
  return b;
}

function pad(levels: DepthLevel[]): DepthLevel[] {
  return [...levels, ...Array(5).fill({ qty: 0, price: 0, orders: 0 })].slice(0, 5);
}

/** Index packets: 28 bytes (quote) or 32 (full, with the exchange timestamp at 28). */
export function indexPacket(
  token: number,
  f: {
    last: number;
    high?: number;
    low?: number;
    open?: number;
    close?: number;
    change?: number;
    exchangeTime?: number;
  },
): Buffer {
  const full = f.exchangeTime !== undefined;
  const b = Buffer.alloc(full ? 32 : 28);
  b.writeUInt32BE(token, 0);
  b.writeInt32BE(f.last, 4);
  b.writeInt32BE(f.high ?? f.last, 8);
  b.writeInt32BE(f.low ?? f.last, 12);
  b.writeInt32BE(f.open ?? f.last, 16);
  b.writeInt32BE(f.close ?? f.last, 20);
  b.writeInt32BE(f.change ?? 0, 24);
  if (full) b.writeUInt32BE(f.exchangeTime ?? 0, 28);
  return b;
}

/** A frame: number of packets (2 bytes), then each packet's length (2 bytes) and bytes. */
export function frame(...packets: Buffer[]): Buffer {
  const head = Buffer.alloc(2);
  head.writeUInt16BE(packets.length, 0);
  return Buffer.concat([
    head,
    ...packets.flatMap((p) => {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(p.length, 0);
      return [length, p];
    }),
  ]);
}

export const HEARTBEAT = Buffer.from([0x00]);

/** The MCX GOLD February future's instrument token in the Kite tests' instrument lists. */
export const GOLD_FEB = (100 << 8) | 7;
/** Tokens of more MCX contracts, shared by the tests that list them. */
export const GOLD_APR = (101 << 8) | 7;
export const GOLD_JUN = (103 << 8) | 7;
export const ZINC_JAN = (104 << 8) | 7;

/** A full-mode tick whose one-level book sits `halfSpreadPaise` either side of `rupees`. */
export function bookTick(token: number, rupees: number, halfSpreadPaise = 5): Buffer {
  const paise = Math.round(rupees * 100);
  return fullPacket(token, {
    last: paise,
    exchangeTime: Math.floor(Date.now() / 1000),
    bids: [{ qty: 1, price: paise - halfSpreadPaise, orders: 1 }],
    asks: [{ qty: 1, price: paise + halfSpreadPaise, orders: 1 }],
  });
}

/**
 * One full-mode GOLD_FEB packet: bid 76,500.00, ask 76,502.00 (Kite sends paise), last
 * 76,501.00. What a test sends once the server subscribed, then looks for in /api/prices.
 */
export function goldFebQuote(): Buffer {
  return frame(
    fullPacket(GOLD_FEB, {
      last: 7_650_100,
      bids: [{ qty: 1, price: 7_650_000, orders: 1 }],
      asks: [{ qty: 1, price: 7_650_200, orders: 1 }],
    }),
  );
}
