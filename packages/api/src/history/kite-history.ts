import { HttpError, httpGet, readJson } from "../feeds/providers/http.ts";
import type { Auth } from "../feeds/providers/kite/credentials.ts";
import { callOutbound } from "../outbound/policy.ts";
import type { HistoryCandle } from "./candle-sink.ts";

const DAY_MS = 86_400_000;
const IST_OFFSET_MS = (5 * 60 + 30) * 60_000;
/** Kite serves at most 60 days of minute candles per request (Kite Connect v3, historical). */
export const KITE_MINUTE_DAYS_PER_REQUEST = 60;
/** Kite's historical API takes 3 requests a second per app; a 4th is a 429. */
export const KITE_HISTORY_PER_SECOND = 3;

/** Kite's `from`/`to`: exchange time (IST) as "yyyy-mm-dd hh:mm:ss". */
export function kiteTime(at: number): string {
  return new Date(at + IST_OFFSET_MS).toISOString().slice(0, 19).replace("T", " ");
}

const STAMP =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:(Z)|([+-])(\d{2}):?(\d{2}))?$/;

/**
 * A Kite candle time ("2026-11-27T09:15:00+0530", the offset without a colon, which Date.parse
 * does not promise to read) as epoch ms; a time without an offset is IST. Undefined if unreadable.
 */
export function parseKiteStamp(text: unknown): number | undefined {
  if (typeof text !== "string") return undefined;
  const m = STAMP.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, z, sign, oh, om] = m;
  const local = Date.UTC(
    Number(y),
    Number(mo) - 1,
    Number(d),
    Number(h),
    Number(mi),
    Number(s ?? 0),
  );
  if (!Number.isFinite(local)) return undefined;
  if (z) return local;
  if (!sign) return local - IST_OFFSET_MS;
  const offset = (Number(oh) * 60 + Number(om)) * 60_000;
  return sign === "+" ? local - offset : local + offset;
}

const price = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;

/**
 * The candles of Kite's historical answer (`{ status: "success", data: { candles: [[ts, o, h,
 * l, c, v], …] } }`), oldest first; rows that are not a time and four prices are left out.
 * Throws with Kite's own sentence on an error envelope or a shape that is not this.
 */
export function parseKiteCandles(body: unknown): HistoryCandle[] {
  const envelope = body as { status?: unknown; message?: unknown; data?: { candles?: unknown } };
  if (envelope?.status !== "success") {
    const why = typeof envelope?.message === "string" ? envelope.message : "no success status";
    throw new Error(`Kite's historical answer: ${why}`);
  }
  const rows = envelope.data?.candles;
  if (!Array.isArray(rows)) throw new Error("Kite's historical answer has no data.candles");
  const candles: HistoryCandle[] = [];
  for (const row of rows) {
    if (!Array.isArray(row)) continue;
    const t = parseKiteStamp(row[0]);
    const [o, h, l, c] = [price(row[1]), price(row[2]), price(row[3]), price(row[4])];
    if (t === undefined || o === undefined || h === undefined || l === undefined || c === undefined)
      continue;
    candles.push({ t, o, h, l, c });
  }
  return candles.sort((a, b) => a.t - b.t);
}

/** [from, to) cut into windows of at most `days` days, oldest first. */
export function windowsOf(from: number, to: number, days: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let start = from; start < to; start += days * DAY_MS)
    out.push([start, Math.min(to, start + days * DAY_MS)]);
  return out;
}

/**
 * Keeps Kite's count of our requests within `perSecond` in any second. Kite counts a request
 * when it arrives, which our clock cannot see; but it has arrived once its answer is back. So a
 * request holds its place until `margin` past a second after its answer: the request after the
 * third then reaches Kite more than a second after the first did, however long each took on
 * the way. One pacer per Kite app, shared by every fetch.
 */
export class RequestPacer {
  /** Places held: the time each answer came back, undefined while the request is out. */
  private places: Array<{ end: number | undefined }> = [];
  private queue: Promise<unknown> = Promise.resolve();
  private released: (() => void) | undefined;

  constructor(
    private readonly perSecond: number,
    private readonly marginMs = 50,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Resolves when a request may start (in the order asked) with the call that says its answer
   * is back (or it failed); rejects if `signal` aborts first.
   */
  slot(signal?: AbortSignal): Promise<() => void> {
    const mine = this.queue.then(() => this.take(signal));
    this.queue = mine.catch(() => undefined);
    return mine;
  }

  private async take(signal?: AbortSignal): Promise<() => void> {
    for (;;) {
      const now = this.now();
      this.places = this.places.filter(
        (p) => p.end === undefined || p.end > now - 1000 - this.marginMs,
      );
      if (this.places.length < this.perSecond) {
        const place: { end: number | undefined } = { end: undefined };
        this.places.push(place);
        return () => {
          if (place.end !== undefined) return;
          place.end = this.now();
          this.released?.();
        };
      }
      const ends = this.places.flatMap((p) => (p.end === undefined ? [] : [p.end]));
      const freeAt = ends.length > 0 ? Math.min(...ends) + 1000 + this.marginMs : undefined;
      await new Promise<void>((resolve, reject) => {
        let timer: NodeJS.Timeout | undefined;
        const finish = () => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", abort);
          this.released = undefined;
        };
        const done = () => {
          finish();
          resolve();
        };
        function abort() {
          finish();
          reject(signal?.reason);
        }
        if (signal?.aborted) return abort();
        if (freeAt !== undefined) timer = setTimeout(done, Math.max(0, freeAt - now));
        this.released = done;
        signal?.addEventListener("abort", abort, { once: true });
      });
    }
  }
}

export interface KiteHistoryOptions {
  apiRoot: string;
  pacer: RequestPacer;
  /** One request gives up after this long (a hang) and counts as a failed attempt. */
  timeoutMs: number;
  attempts?: number;
  backoff?: { initialMs: number; maxMs: number };
}

/** 429s, 5xx and network failures are worth another try; a refusal (403) or bad input is not. */
function retryable(error: Error): boolean {
  if (error instanceof HttpError) return error.status === 429 || error.status >= 500;
  return !/historical answer/.test(error.message);
}

/**
 * Kite Connect's historical candles of one instrument token, minute interval:
 * `GET /instruments/historical/:token/minute?from&to`, at most 60 days a request, paced to
 * Kite's 3 requests a second, 429s and failures retried with backoff, each request bounded by
 * `timeoutMs`. Kite keeps no intraday history of expired contracts: ask for live ones only.
 */
export class KiteHistory {
  constructor(private readonly options: KiteHistoryOptions) {}

  /** One window's request (≤ 60 days), with its retries. */
  async window(
    auth: Auth,
    token: number,
    from: number,
    to: number,
    signal?: AbortSignal,
  ): Promise<HistoryCandle[]> {
    const { apiRoot, pacer, timeoutMs, attempts = 4, backoff } = this.options;
    const url = new URL(`${apiRoot}/instruments/historical/${token}/minute`);
    url.searchParams.set("from", kiteTime(from));
    url.searchParams.set("to", kiteTime(to));
    const candles = await callOutbound(
      {
        attempts,
        attemptTimeoutMs: timeoutMs,
        initialDelayMs: backoff?.initialMs ?? 1_000,
        maxDelayMs: backoff?.maxMs ?? 30_000,
        retryIf: retryable,
      },
      async (attemptSignal) => {
        const answered = await pacer.slot(attemptSignal);
        try {
          const response = await httpGet(url.toString(), {
            headers: {
              "X-Kite-Version": "3",
              authorization: `token ${auth.apiKey}:${auth.accessToken}`,
            },
            signal: attemptSignal,
          });
          return parseKiteCandles(await readJson(response));
        } finally {
          answered();
        }
      },
      signal,
    );
    // Kite's `to` is inclusive: the bar at `to` belongs to the next window.
    return candles.filter((c) => c.t >= from && c.t < to);
  }
}
