import { constants, deflateRawSync } from "node:zlib";

/**
 * A gzip member header (deflate, no name, time 0, OS unknown). Its trailer never comes: a stream
 * ends with its connection, and the browser has dispatched every event it decoded by then.
 */
export const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/**
 * How far back a chained frame may refer: deflate's whole window, which every gzip decoder
 * keeps. A client must have received this many bytes of chain frames in a row before it is sent
 * chained frames (~20 deltas, about a second). 8 kB measured 6–8 MB per client-hour on the
 * simulator, against 21 for frames compressed alone; 32 kB reaches back past a second of
 * frames, to the last time each spread definition's entry was sent (they change at most once a
 * second): 8.3 MB with the default instruments, 13.1 with 20 definitions against 18.7 at 8 kB
 * (BENCHMARKS.md, "Spread definitions"). Compressing against 32 kB costs no more than 8 kB.
 */
export const CHAIN_WINDOW = 32_768;

/** True when the request's Accept-Encoding takes gzip (and does not refuse it with q=0). */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(",") : (header ?? "");
  return value
    .split(",")
    .map((part) => part.trim().toLowerCase().split(";"))
    .some(([coding, q]) => coding === "gzip" && !/^\s*q\s*=\s*0(\.0*)?\s*$/.test(q ?? ""));
}

/**
 * A deflate segment that refers to nothing before it: valid after any other segment, so one copy
 * serves every client whatever it received before. Sync flush: byte-aligned, not final.
 */
export function packAlone(plain: Buffer): Buffer {
  return deflateRawSync(plain, { finishFlush: constants.Z_SYNC_FLUSH });
}

/**
 * The frames every up-to-date client receives in the same order: each version's delta from the
 * one before, and the pings. A client whose last CHAIN_WINDOW bytes were exactly these frames
 * holds the same decoder history as the chain, so the latest frame compressed against that
 * history (a preset dictionary, once per frame) decodes right for all of them: the savings of a
 * per-client gzip stream at the cost of one compression for everybody.
 */
export class FrameChain {
  /** Frames pushed so far; the latest has this number. */
  seq = 0;
  /** Chain bytes before the latest frame. */
  posBefore = 0;
  private history = Buffer.alloc(0);
  private latest: Buffer | undefined;
  private latestPacked: Buffer | undefined;

  push(plain: Buffer): void {
    if (this.latest) {
      this.history = Buffer.concat([this.history, this.latest]).subarray(-CHAIN_WINDOW);
      this.posBefore += this.latest.length;
    }
    this.latest = plain;
    this.latestPacked = undefined;
    this.seq++;
  }

  isLatest(plain: Buffer): boolean {
    return plain === this.latest;
  }

  /** The latest frame compressed against the chain's history. */
  packedLatest(): Buffer {
    this.latestPacked ??= deflateRawSync(this.latest as Buffer, {
      dictionary: this.history,
      finishFlush: constants.Z_SYNC_FLUSH,
    });
    return this.latestPacked;
  }
}

/** Where a gzip client stands against the chain. */
export interface ChainPosition {
  /** The chain frame it received last, if that was the chain's latest when sent; else -1. */
  chainSeq: number;
  /** Chain position where its current run of consecutive chain frames began. */
  runStart: number;
}

/**
 * The bytes to write to a gzip client for the frame `plain`: the chained copy when its history
 * matches the chain's, else one compressed alone (`alone`, shared by every such client).
 */
export function packFor(
  chain: FrameChain,
  client: ChainPosition,
  plain: Buffer,
  alone: () => Buffer,
): Buffer {
  if (!chain.isLatest(plain)) {
    client.chainSeq = -1;
    return alone();
  }
  const continues = client.chainSeq !== -1 && client.chainSeq === chain.seq - 1;
  if (!continues) client.runStart = chain.posBefore;
  client.chainSeq = chain.seq;
  return continues && chain.posBefore - client.runStart >= CHAIN_WINDOW
    ? chain.packedLatest()
    : alone();
}
