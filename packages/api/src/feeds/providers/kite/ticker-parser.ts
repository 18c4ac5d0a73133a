/**
 * Kite Connect's binary ticker messages (big-endian). A frame is a 2-byte packet count, then per
 * packet a 2-byte length and the packet; a 1-byte frame is a heartbeat. The packet's length says
 * its mode: 8 ltp, 28/32 index quote/full, 44 quote, 184 full (with 5 levels of market depth).
 * Prices are integers: paise (÷100), except the currency segments (CDS ÷10⁷, BCD ÷10⁴).
 */

/** instrument_token & 0xff. */
export const SEGMENTS = {
  NSE: 1,
  NFO: 2,
  CDS: 3,
  BSE: 4,
  BFO: 5,
  BCD: 6,
  MCX: 7,
  MCXSX: 8,
  INDICES: 9,
} as const;

export const PACKET_LENGTH = {
  ltp: 8,
  indexQuote: 28,
  indexFull: 32,
  quote: 44,
  full: 184,
} as const;
/** Where the depth starts in a full packet; 5 bid entries then 5 ask entries of 12 bytes. */
export const DEPTH_OFFSET = 64;
export const DEPTH_ENTRY_LENGTH = 12;

export interface KiteTick {
  token: number;
  mode: "ltp" | "quote" | "full" | "index";
  lastPrice: number | undefined;
  /**
   * Best bid and ask from a full packet's first depth entries; `null` when that side of the book
   * is empty now (quantity 0). Absent in modes without depth.
   */
  bid?: number | null;
  ask?: number | null;
  /** The exchange's time for the tick (epoch ms), in full and index-full packets. */
  exchangeTs?: number;
}

export class KiteFrameError extends Error {
  override name = "KiteFrameError";
}

export function priceDivisor(token: number): number {
  const segment = token & 0xff;
  if (segment === SEGMENTS.CDS) return 10_000_000;
  if (segment === SEGMENTS.BCD) return 10_000;
  return 100;
}

/**
 * Kite sends 0 for "no trade yet"; any other value is a price, negative included (MCX CRUDEOIL
 * traded below zero on 20 April 2020).
 */
function price(view: DataView, offset: number, divisor: number): number | undefined {
  const raw = view.getInt32(offset);
  return raw !== 0 ? raw / divisor : undefined;
}

/** The best level of one side: quantity 0 means nobody is there now, whatever the price bytes say. */
function bestLevel(view: DataView, offset: number, divisor: number): number | null {
  if (view.getInt32(offset) <= 0) return null;
  return view.getInt32(offset + 4) / divisor;
}

function seconds(view: DataView, offset: number): number | undefined {
  const raw = view.getUint32(offset);
  return raw > 0 ? raw * 1000 : undefined;
}

/** One packet; undefined for a length this parser does not know (a newer mode), which is skipped. */
export function parsePacket(packet: Uint8Array): KiteTick | undefined {
  const view = new DataView(packet.buffer, packet.byteOffset, packet.byteLength);
  if (packet.byteLength < 8) return undefined;
  const token = view.getUint32(0);
  const divisor = priceDivisor(token);
  const lastPrice = price(view, 4, divisor);
  switch (packet.byteLength) {
    case PACKET_LENGTH.ltp:
      return { token, mode: "ltp", lastPrice };
    case PACKET_LENGTH.indexQuote:
      return { token, mode: "index", lastPrice };
    case PACKET_LENGTH.indexFull: {
      const exchangeTs = seconds(view, 28);
      return { token, mode: "index", lastPrice, ...(exchangeTs && { exchangeTs }) };
    }
    case PACKET_LENGTH.quote:
      return { token, mode: "quote", lastPrice };
    case PACKET_LENGTH.full: {
      const tick: KiteTick = { token, mode: "full", lastPrice };
      const exchangeTs = seconds(view, 60);
      if (exchangeTs) tick.exchangeTs = exchangeTs;
      tick.bid = bestLevel(view, DEPTH_OFFSET, divisor);
      tick.ask = bestLevel(view, DEPTH_OFFSET + 5 * DEPTH_ENTRY_LENGTH, divisor);
      return tick;
    }
    default:
      return undefined;
  }
}

export interface ParsedFrame {
  heartbeat: boolean;
  ticks: KiteTick[];
  /** Packets of a length this parser does not know. */
  skipped: number;
}

/** Throws KiteFrameError when the frame's lengths do not add up; the caller drops the frame. */
export function parseFrame(frame: Uint8Array): ParsedFrame {
  if (frame.byteLength === 1) return { heartbeat: true, ticks: [], skipped: 0 };
  if (frame.byteLength < 2) throw new KiteFrameError("empty frame");
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const count = view.getUint16(0);
  const ticks: KiteTick[] = [];
  let skipped = 0;
  let offset = 2;
  for (let i = 0; i < count; i++) {
    if (offset + 2 > frame.byteLength)
      throw new KiteFrameError(`frame ends before packet ${i + 1} of ${count}`);
    const length = view.getUint16(offset);
    offset += 2;
    if (offset + length > frame.byteLength)
      throw new KiteFrameError(
        `packet ${i + 1} of ${count} says ${length} bytes, ${frame.byteLength - offset} left`,
      );
    const tick = parsePacket(frame.subarray(offset, offset + length));
    if (tick) ticks.push(tick);
    else skipped++;
    offset += length;
  }
  if (offset !== frame.byteLength)
    throw new KiteFrameError(`${frame.byteLength - offset} bytes after the last packet`);
  return { heartbeat: false, ticks, skipped };
}
