import { isBookSource, type Quote } from "@spreadwatch/core";
import WebSocket from "ws";
import type { KiteSettings } from "../../../config.ts";
import { Backoff } from "../backoff.ts";
import { describeError, HealthTracker } from "../health.ts";
import { HttpError } from "../http.ts";
import { isMarketOpen, type MarketHours } from "../market-hours.ts";
import { defaultLogger, type Logger, onceLogger, type Provider } from "../provider.ts";
import { sourceOf } from "../quote-keys.ts";
import {
  fetchInstruments,
  istDate,
  KITE_TARGETS,
  type KiteInstrument,
  pickInstrument,
} from "./instruments.ts";
import { readKiteSession } from "./session.ts";
import { type KiteTick, parseFrame } from "./ticker-parser.ts";

export interface KiteOptions {
  name: string;
  keys: readonly string[];
  settings: KiteSettings;
  dataDir: string;
  rollDaysBeforeExpiry: number;
  /** An open socket with no frame (not even a heartbeat) this long, while the market is open, is dead. */
  silenceMs: number;
  hours: MarketHours;
  /** How often to check whether a contract should roll (and the instruments list is a day old). */
  refreshMs: number;
  /** How often to look for a new access token in DATA_DIR (after a login in the browser or CLI). */
  tokenCheckMs: number;
  staleAfterMs: number;
  timeoutMs: number;
  backoff: { initialMs: number; maxMs: number };
  log?: Logger;
  now?: () => number;
  /** The clock contracts are picked by (tests move it to cross an expiry). */
  dateNow?: () => number;
  random?: () => number;
}

interface Auth {
  apiKey: string;
  accessToken: string;
}

const LOGIN_HINT = "an admin logs in at /api/kite/login (or runs the kite CLI)";

/** Kite's last price, or the book from the first depth level, as one of our quotes. */
export function kiteQuote(key: string, tick: KiteTick, receivedAt: number): Quote | undefined {
  const source = sourceOf(key);
  const ts = tick.exchangeTs ?? receivedAt;
  if (isBookSource(source)) {
    if (tick.bid !== undefined || tick.ask !== undefined) {
      return {
        source,
        key,
        ts,
        ...(tick.bid !== undefined && { bid: tick.bid }),
        ...(tick.ask !== undefined && { ask: tick.ask }),
      };
    }
    if (tick.lastPrice === undefined) return undefined;
    return { source, key, ts, bid: tick.lastPrice, ask: tick.lastPrice, lastOnly: true };
  }
  const mid =
    tick.bid !== undefined && tick.ask !== undefined ? (tick.bid + tick.ask) / 2 : undefined;
  const price = tick.lastPrice ?? mid;
  return price === undefined ? undefined : { source, key, ts, price };
}

function describeContract(instrument: KiteInstrument): string {
  return instrument.expiry
    ? `${instrument.tradingsymbol} (expires ${instrument.expiry})`
    : instrument.tradingsymbol;
}

/**
 * Kite Connect's WebSocket ticker, spoken with `ws` behind our own parser (the kiteconnect
 * package's ticker can end the process). MCX near-month futures, the USDINR future and NIFTY 50,
 * in full mode so the book comes with every tick.
 */
export class KiteProvider implements Provider {
  readonly name: string;
  private readonly tracker: HealthTracker;
  private readonly backoff: Backoff;
  private readonly log: Logger;
  private readonly note: ReturnType<typeof onceLogger>;
  private readonly now: () => number;
  private readonly dateNow: () => number;
  private onQuote: ((quote: Quote) => void) | undefined;
  private ws: WebSocket | undefined;
  private auth: Auth | undefined;
  private rejectedToken: string | undefined;
  private socketError: Error | undefined;
  private lastFrameAt = 0;
  private dataSinceOpen = false;
  private connecting = false;
  private stopped = false;
  private subscribed = new Map<number, string>();
  private cache: { day: string; accessToken: string; rows: KiteInstrument[] } | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private timers: NodeJS.Timeout[] = [];
  private readonly abort = new AbortController();

  constructor(private readonly options: KiteOptions) {
    this.name = options.name;
    this.now = options.now ?? Date.now;
    this.dateNow = options.dateNow ?? this.now;
    this.log = options.log ?? defaultLogger;
    this.note = onceLogger(this.log);
    this.backoff = new Backoff({
      ...options.backoff,
      ...(options.random && { random: options.random }),
    });
    this.tracker = new HealthTracker({
      name: options.name,
      kind: "kite",
      keys: options.keys,
      staleAfterMs: options.staleAfterMs,
      now: this.now,
      marketOpen: (at) => isMarketOpen(options.hours, at),
    });
  }

  start(onQuote: (quote: Quote) => void): void {
    this.onQuote = onQuote;
    const every = (ms: number, work: () => void | Promise<void>) =>
      this.timers.push(setInterval(() => this.guard(work), ms));
    every(this.options.tokenCheckMs, () => this.checkToken());
    every(Math.min(1_000, this.options.silenceMs / 4), () => this.watchSilence());
    every(this.options.refreshMs, () => this.refresh());
    this.guard(() => this.connect());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    for (const timer of this.timers) clearInterval(timer);
    clearTimeout(this.reconnectTimer);
    this.ws?.terminate();
    this.ws = undefined;
  }

  health() {
    return this.tracker.report();
  }

  /** Runs timer work so that nothing it throws or rejects can reach the process. */
  private guard(work: () => void | Promise<void>): void {
    try {
      Promise.resolve(work()).catch((error) => this.log(`${this.name}: ${describeError(error)}`));
    } catch (error) {
      this.log(`${this.name}: ${describeError(error)}`);
    }
  }

  private credentials(): Auth | undefined {
    const { apiKey } = this.options.settings;
    if (!apiKey) {
      this.tracker.notConfigured("KITE_API_KEY and KITE_API_SECRET are not set");
      return undefined;
    }
    const stored = readKiteSession(this.options.dataDir, this.now());
    if (stored.kind === "missing") {
      this.tracker.notConfigured(`no Kite access token yet: ${LOGIN_HINT}`);
      return undefined;
    }
    if (stored.kind === "unreadable") {
      this.tracker.notConfigured(`the stored Kite session is unreadable (${stored.reason})`);
      return undefined;
    }
    if (stored.kind === "expired") {
      const at = new Date(stored.session.expiresAt).toISOString();
      this.tracker.notConfigured(`the Kite access token expired at ${at}: ${LOGIN_HINT}`);
      return undefined;
    }
    if (stored.session.accessToken === this.rejectedToken) {
      this.tracker.notConfigured(`Kite refused the stored access token: ${LOGIN_HINT}`);
      return undefined;
    }
    return { apiKey, accessToken: stored.session.accessToken };
  }

  private async connect(): Promise<void> {
    if (this.stopped || this.connecting || this.ws || this.reconnectTimer) return;
    this.connecting = true;
    try {
      const auth = this.credentials();
      if (!auth) return;
      this.auth = auth;
      const picks = await this.resolve(auth);
      if (this.stopped) return;
      this.openSocket(auth, picks);
    } catch (error) {
      this.failed(error);
    } finally {
      this.connecting = false;
    }
  }

  /** Today's contract per key, from the instruments lists (fetched once per IST day). */
  private async resolve(auth: Auth): Promise<Map<number, string>> {
    const day = istDate(this.dateNow());
    if (this.cache?.day !== day || this.cache.accessToken !== auth.accessToken) {
      const exchanges = [...new Set(this.options.keys.map((k) => KITE_TARGETS[k]?.exchange))];
      const lists = await Promise.all(
        exchanges
          .filter((e): e is NonNullable<typeof e> => e !== undefined)
          .map((exchange) =>
            fetchInstruments(
              this.options.settings.apiRoot,
              exchange,
              auth,
              this.abort.signal,
              this.options.timeoutMs,
            ),
          ),
      );
      this.cache = { day, accessToken: auth.accessToken, rows: lists.flat() };
    }
    const picks = new Map<number, string>();
    const contracts: Record<string, string> = {};
    for (const key of this.options.keys) {
      const target = KITE_TARGETS[key];
      const pick =
        target && pickInstrument(this.cache.rows, target, day, this.options.rollDaysBeforeExpiry);
      this.note(
        key,
        pick ? undefined : `${this.name}: Kite's instruments list has nothing for ${key}`,
      );
      if (!pick) continue;
      picks.set(pick.token, key);
      contracts[key] = describeContract(pick);
    }
    this.tracker.setContracts(contracts);
    if (picks.size === 0) throw new Error("none of the keys is in Kite's instruments lists");
    return picks;
  }

  private openSocket(auth: Auth, picks: Map<number, string>): void {
    const url = new URL(this.options.settings.wsRoot);
    url.searchParams.set("api_key", auth.apiKey);
    url.searchParams.set("access_token", auth.accessToken);
    const ws = new WebSocket(url, { handshakeTimeout: this.options.timeoutMs });
    this.ws = ws;
    this.subscribed = picks;
    this.socketError = undefined;
    this.dataSinceOpen = false;
    ws.on("open", () => {
      this.lastFrameAt = this.now();
      this.tracker.open();
      this.send(ws, { a: "subscribe", v: [...picks.keys()] });
      this.send(ws, { a: "mode", v: ["full", [...picks.keys()]] });
    });
    ws.on("message", (data, isBinary) => this.guard(() => this.received(data as Buffer, isBinary)));
    ws.on("error", (error) => {
      this.socketError ??= error;
    });
    ws.on("close", (code, reason) => {
      if (this.ws !== ws) return;
      this.ws = undefined;
      if (this.stopped) return;
      const text = reason.toString();
      this.failed(
        this.socketError ??
          new Error(`ticker connection closed (code ${code}${text ? `: ${text}` : ""})`),
      );
    });
  }

  private send(ws: WebSocket, message: unknown): void {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  }

  private received(data: Buffer, isBinary: boolean): void {
    this.lastFrameAt = this.now();
    if (!isBinary) {
      // Kite's text messages are JSON: errors and order updates; only errors matter here.
      let message: { type?: unknown; data?: unknown } | undefined;
      try {
        message = JSON.parse(data.toString("utf8"));
      } catch {
        this.log(`${this.name}: ignored a text message that is not JSON`);
        return;
      }
      if (message?.type === "error") {
        this.log(`${this.name}: Kite says: ${String(message.data)}`);
        this.tracker.noteError(`Kite says: ${String(message.data)}`);
      }
      return;
    }
    let frame: ReturnType<typeof parseFrame>;
    try {
      frame = parseFrame(data);
    } catch (error) {
      const message = `dropped a broken ticker frame (${describeError(error)}, ${data.length} bytes)`;
      this.log(`${this.name}: ${message}`);
      this.tracker.noteError(message);
      return;
    }
    if (frame.heartbeat) return;
    if (!this.dataSinceOpen) {
      this.dataSinceOpen = true;
      this.backoff.reset();
    }
    const receivedAt = this.now();
    for (const tick of frame.ticks) {
      const key = this.subscribed.get(tick.token);
      const quote = key && kiteQuote(key, tick, receivedAt);
      if (!quote) continue;
      this.tracker.quote();
      try {
        this.onQuote?.(quote);
      } catch (error) {
        this.log(`${this.name}: a quote could not be delivered: ${describeError(error)}`);
      }
    }
  }

  private failed(error: unknown): void {
    if (this.stopped) return;
    const status =
      error instanceof HttpError
        ? error.status
        : Number(/Unexpected server response: (\d+)/.exec(describeError(error))?.[1]);
    if (status === 403 && this.auth) {
      // A refused token stays refused: wait for a new login instead of hammering Kite.
      this.rejectedToken = this.auth.accessToken;
      this.tracker.notConfigured(`Kite refused the access token (HTTP 403): ${LOGIN_HINT}`);
      this.log(`${this.name}: Kite refused the access token; waiting for a new login`);
      return;
    }
    this.tracker.fail(error);
    const wait = this.backoff.next();
    this.log(
      `${this.name}: ${describeError(error)}; reconnecting in ${(wait / 1000).toFixed(1)} s`,
    );
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.tracker.reconnecting();
      this.guard(() => this.connect());
    }, wait);
  }

  private watchSilence(): void {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    const now = this.now();
    if (now - this.lastFrameAt <= this.options.silenceMs) return;
    if (!isMarketOpen(this.options.hours, now)) return;
    this.socketError = new Error(
      `no data for ${((now - this.lastFrameAt) / 1000).toFixed(1)} s while the market is open`,
    );
    ws.terminate();
  }

  /** A login stored a new token: use it at once; with no connection, try again. */
  private async checkToken(): Promise<void> {
    if (this.stopped) return;
    if (!this.ws) return this.connect();
    const stored = readKiteSession(this.options.dataDir, this.now());
    if (stored.kind !== "valid" || stored.session.accessToken === this.auth?.accessToken) return;
    this.log(`${this.name}: a new Kite access token was stored; reconnecting with it`);
    this.backoff.reset();
    this.socketError = new Error("reconnecting with a new access token");
    this.ws.terminate();
  }

  /** Rolls to the next contract when the day says so, on the open socket. */
  private async refresh(): Promise<void> {
    const ws = this.ws;
    const auth = this.auth;
    if (!ws || !auth || ws.readyState !== WebSocket.OPEN) return;
    const picks = await this.resolve(auth);
    if (this.ws !== ws) return;
    const old = [...this.subscribed.keys()].filter((token) => !picks.has(token));
    const added = [...picks.keys()].filter((token) => !this.subscribed.has(token));
    if (old.length === 0 && added.length === 0) return;
    this.subscribed = picks;
    if (old.length > 0) this.send(ws, { a: "unsubscribe", v: old });
    if (added.length > 0) {
      this.send(ws, { a: "subscribe", v: added });
      this.send(ws, { a: "mode", v: ["full", added] });
    }
    this.log(
      `${this.name}: rolled to ${Object.values(this.tracker.report().contracts ?? {}).join(", ")}`,
    );
  }
}

export function createKiteProvider(options: KiteOptions): Provider {
  return new KiteProvider(options);
}
