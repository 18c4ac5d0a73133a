import type { InstrumentSpec, Quote } from "@spreadwatch/core";
import WebSocket from "ws";
import type { KiteSettings } from "../../../config/index.ts";
import { callOutbound } from "../../../outbound/policy.ts";
import { describeError, HealthTracker } from "../health.ts";
import { HttpError } from "../http.ts";
import { isMarketOpen, type MarketHours } from "../market-hours.ts";
import { defaultLogger, type Logger, onceLogger, type Provider } from "../provider.ts";
import { configInstruments } from "../quote-keys.ts";
import {
  KITE_INSTRUMENTS_PER_CONNECTION,
  KiteContracts,
  type KitePick,
  type KitePicks,
} from "./contracts.ts";
import { type Auth, kiteCredentials, LOGIN_HINT } from "./credentials.ts";
import { kiteQuote } from "./kite-quote.ts";
import type { KiteSessions } from "./session.ts";
import { parseFrame } from "./ticker-parser.ts";

export interface KiteOptions {
  name: string;
  keys: readonly string[];
  settings: KiteSettings;
  /** The day's access token, saved by a login on any instance (the database). */
  sessions: Pick<KiteSessions, "read">;
  rollDaysBeforeExpiry: number;
  /** An open socket with no frame (not even a heartbeat) this long, while the market is open, is dead. */
  silenceMs: number;
  hours: MarketHours;
  /** How often to check whether a contract should roll (and the instruments list is a day old). */
  refreshMs: number;
  /** How often to look for a new access token in the database (after a login in the browser or CLI). */
  tokenCheckMs: number;
  staleAfterMs: number;
  timeoutMs: number;
  backoff: { initialMs: number; maxMs: number };
  log?: Logger;
  now?: () => number;
  /** The clock contracts are picked by (tests move it to cross an expiry). */
  dateNow?: () => number;
  /** Distinct instruments one connection subscribes at most (Kite's limit: 3,000). */
  maxInstrumentsPerConnection?: number;
  /**
   * Told the IST day and the contracts after every re-pick on the open socket, once its
   * subscribe and unsubscribe messages are sent (tests watch rolls through it).
   */
  onRefresh?: (day: string, contracts: Record<string, string>) => void;
  /** Told the verdict of every silence check (tests watch the watchdog through it). */
  onSilenceCheck?: (verdict: "heard" | "market closed" | "dead") => void;
}

/** The ticker must keep trying until the server stops: nobody is waiting to be told it failed. */
const FOREVER = Number.MAX_SAFE_INTEGER;

/** No credentials or no token: nothing to try until a login stores one (the tracker says why). */
class NotConfigured extends Error {}

/** Kite refused our key or token (HTTP 403 on the instruments or the ticker handshake). */
function isRefusal(error: unknown): boolean {
  const status =
    error instanceof HttpError
      ? error.status
      : Number(/Unexpected server response: (\d+)/.exec(describeError(error))?.[1]);
  return status === 403;
}

/**
 * Kite Connect's WebSocket ticker, spoken with `ws` behind our own parser (the kiteconnect
 * package's ticker can end the process). MCX futures in any month, the USDINR future, NSE
 * indices, or any exact tradingsymbol (docs/market-data.md), in full mode so the book comes with
 * every tick. The instruments in use can change while the socket is open: only the difference is
 * subscribed or unsubscribed, the other instruments keep ticking.
 *
 * Connecting (instruments lists, handshake, first frame) runs under the outbound policy: each
 * attempt has `timeoutMs`, failures are retried with exponential backoff until one works or the
 * server stops. Once the socket has spoken, a drop starts a fresh round of attempts.
 */
export class KiteProvider implements Provider {
  readonly name: string;
  private readonly tracker: HealthTracker;
  private readonly log: Logger;
  private readonly now: () => number;
  private readonly dateNow: () => number;
  private onQuote: ((quote: Quote) => void) | undefined;
  private ws: WebSocket | undefined;
  private auth: Auth | undefined;
  private rejectedToken: string | undefined;
  /** Why we are closing the socket ourselves (silence, a new token), for health and the log. */
  private dropReason: Error | undefined;
  private lastFrameAt = 0;
  private lastAttemptFailed = false;
  private connecting: Promise<void> | undefined;
  private stopped = false;
  private subscribed = new Map<number, KitePick>();
  /** Key → its spec where known: the config's keys until the instruments in use are set. */
  private instruments: Map<string, InstrumentSpec | undefined>;
  /** Bumped on every change of `instruments`, so a connection made meanwhile catches up. */
  private version = 0;
  private syncing: Promise<void> | undefined;
  private syncAgain = false;
  private readonly contracts: KiteContracts;
  private restartTimer: NodeJS.Timeout | undefined;
  private timers: NodeJS.Timeout[] = [];
  private readonly abort = new AbortController();

  constructor(private readonly options: KiteOptions) {
    this.name = options.name;
    this.now = options.now ?? Date.now;
    this.dateNow = options.dateNow ?? this.now;
    this.log = options.log ?? defaultLogger;
    this.instruments = configInstruments(options.keys);
    this.contracts = new KiteContracts({
      name: options.name,
      maxInstruments: options.maxInstrumentsPerConnection ?? KITE_INSTRUMENTS_PER_CONNECTION,
      apiRoot: options.settings.apiRoot,
      rollDaysBeforeExpiry: options.rollDaysBeforeExpiry,
      dateNow: this.dateNow,
      note: onceLogger(this.log),
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
    every(this.options.refreshMs, () => this.sync());
    this.reconnect();
  }

  setInstruments(instruments: readonly InstrumentSpec[]): void {
    this.instruments = new Map(instruments.map((spec) => [spec.key, spec]));
    this.version++;
    this.tracker.setKeys(this.instruments.keys());
    if (!this.onQuote || this.stopped) return;
    if (this.ws) this.guard(() => this.sync());
    else this.reconnect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    for (const timer of this.timers) clearInterval(timer);
    clearTimeout(this.restartTimer);
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

  /** The app key and today's token, or undefined with the tracker saying what is missing. */
  private async credentials(): Promise<Auth | undefined> {
    const stored = await this.options.sessions.read(this.now());
    const found = kiteCredentials(this.options.settings, stored, this.rejectedToken);
    if ("missing" in found) {
      this.tracker.notConfigured(found.missing);
      return undefined;
    }
    return found;
  }

  /** Starts a round of connection attempts unless one is running or a socket is open. */
  private reconnect(): void {
    if (this.stopped || this.connecting || this.ws) return;
    this.connecting = this.connectUntilOpen().finally(() => {
      this.connecting = undefined;
    });
  }

  private async connectUntilOpen(): Promise<void> {
    const { timeoutMs, backoff } = this.options;
    try {
      await callOutbound(
        {
          attempts: FOREVER,
          attemptTimeoutMs: timeoutMs,
          initialDelayMs: backoff.initialMs,
          maxDelayMs: backoff.maxMs,
          retryIf: (error) => !(error instanceof NotConfigured) && !isRefusal(error),
        },
        (signal) => this.attempt(signal),
        this.abort.signal,
      );
    } catch (error) {
      if (this.stopped || !isRefusal(error) || !this.auth) return;
      // A refused token stays refused: wait for a new login instead of hammering Kite.
      this.rejectedToken = this.auth.accessToken;
      this.tracker.notConfigured(`Kite refused the access token (HTTP 403): ${LOGIN_HINT}`);
      this.log(`${this.name}: Kite refused the access token; waiting for a new login`);
    }
  }

  /** One try: today's contracts, the handshake, the subscription, the first frame. */
  private async attempt(signal: AbortSignal): Promise<void> {
    if (this.stopped) throw new Error("stopped");
    const auth = await this.credentials();
    if (!auth) throw new NotConfigured();
    if (this.instruments.size === 0) {
      this.tracker.notConfigured("no instrument in use is taken from Kite");
      throw new NotConfigured();
    }
    if (this.lastAttemptFailed) this.tracker.reconnecting();
    this.auth = auth;
    try {
      const version = this.version;
      const picks = await this.resolve(auth, signal);
      if (picks.tokens.size === 0)
        throw new Error("none of the keys is in Kite's instruments lists");
      await this.openSocket(auth, picks.tokens, signal);
      this.lastAttemptFailed = false;
      // The instruments in use changed while this connection was being made.
      if (this.version !== version) this.guard(() => this.sync());
    } catch (error) {
      if (this.stopped) throw error;
      this.lastAttemptFailed = true;
      const reason =
        signal.aborted && !this.abort.signal.aborted
          ? new Error(`Kite did not answer within ${this.options.timeoutMs / 1000} s`)
          : error;
      this.tracker.fail(reason);
      this.log(`${this.name}: ${describeError(reason)}; reconnecting`);
      throw error;
    }
  }

  /** Today's contract per key; shown in health as the contracts in use, and what is missing. */
  private async resolve(auth: Auth, signal: AbortSignal): Promise<KitePicks> {
    const picks = await this.contracts.pick(this.instruments, auth, signal);
    this.tracker.setContracts(picks.contracts);
    this.tracker.setMissing(picks.missing);
    return picks;
  }

  /**
   * Opens the ticker and subscribes; resolves on its first frame (Kite sends a heartbeat every
   * second), rejects if it closes or the attempt's signal fires first. After that the socket is
   * on its own: its close starts the next round.
   */
  private openSocket(auth: Auth, picks: Map<number, KitePick>, signal: AbortSignal): Promise<void> {
    const url = new URL(this.options.settings.wsRoot);
    url.searchParams.set("api_key", auth.apiKey);
    url.searchParams.set("access_token", auth.accessToken);
    const ws = new WebSocket(url, {
      headers: { "X-Kite-Version": "3" },
      handshakeTimeout: this.options.timeoutMs,
    });
    this.ws = ws;
    this.subscribed = picks;
    this.dropReason = undefined;
    let socketError: Error | undefined;
    return new Promise((resolve, reject) => {
      let settled = false;
      const cut = () => ws.terminate();
      signal.addEventListener("abort", cut, { once: true });
      const settle = (error?: Error) => {
        if (settled) return false;
        settled = true;
        // The policy aborts an attempt's signal once it returns: the socket must outlive it.
        signal.removeEventListener("abort", cut);
        if (error) reject(error);
        else resolve();
        return true;
      };
      ws.on("open", () => {
        this.lastFrameAt = this.now();
        this.tracker.open();
        this.send(ws, { a: "subscribe", v: [...picks.keys()] });
        this.send(ws, { a: "mode", v: ["full", [...picks.keys()]] });
      });
      ws.on("message", (data, isBinary) => {
        settle();
        this.guard(() => this.received(data as Buffer, isBinary));
      });
      ws.on("error", (error) => {
        socketError ??= error;
      });
      ws.on("close", (code, reason) => {
        if (this.ws === ws) this.ws = undefined;
        const text = reason.toString();
        const error =
          this.dropReason ??
          socketError ??
          new Error(`ticker connection closed (code ${code}${text ? `: ${text}` : ""})`);
        if (settle(error) || this.stopped) return;
        this.closed(error);
      });
    });
  }

  /** A socket that had been working closed: say so, then start a new round after a short pause. */
  private closed(error: Error): void {
    this.lastAttemptFailed = true;
    this.tracker.fail(error);
    this.log(`${this.name}: ${describeError(error)}; reconnecting`);
    clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      this.reconnect();
    }, this.options.backoff.initialMs);
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
    const receivedAt = this.now();
    for (const tick of frame.ticks) {
      const pick = this.subscribed.get(tick.token);
      for (const { key, source } of pick?.keys ?? []) {
        const quote = kiteQuote(key, source, tick, receivedAt, pick?.instrument);
        if (!quote) continue;
        this.tracker.quote();
        try {
          this.onQuote?.(quote);
        } catch (error) {
          this.log(`${this.name}: a quote could not be delivered: ${describeError(error)}`);
        }
      }
    }
  }

  private watchSilence(): void {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    const verdict = this.silenceVerdict(this.now());
    this.options.onSilenceCheck?.(verdict);
    if (verdict !== "dead") return;
    const silentFor = ((this.now() - this.lastFrameAt) / 1000).toFixed(1);
    this.dropReason = new Error(`no data for ${silentFor} s while the market is open`);
    ws.terminate();
  }

  /** A silent socket is dead only while its market is open: a closed market sends nothing. */
  private silenceVerdict(now: number): "heard" | "market closed" | "dead" {
    if (now - this.lastFrameAt <= this.options.silenceMs) return "heard";
    return isMarketOpen(this.options.hours, now) ? "dead" : "market closed";
  }

  /** A login stored a new token: use it at once; with no connection, try again. */
  private async checkToken(): Promise<void> {
    if (this.stopped) return;
    if (!this.ws) return this.reconnect();
    const ws = this.ws;
    const stored = await this.options.sessions.read(this.now());
    if (this.stopped || this.ws !== ws) return;
    if (stored.kind !== "valid" || stored.session.accessToken === this.auth?.accessToken) return;
    this.log(`${this.name}: a new Kite access token was stored; reconnecting with it`);
    this.dropReason = new Error("reconnecting with a new access token");
    ws.terminate();
  }

  /**
   * Re-picks the contracts (a roll, or the instruments in use changed) and subscribes the
   * difference on the open socket. One at a time: a call while one runs makes it run again.
   */
  private sync(): Promise<void> {
    if (this.syncing) {
      this.syncAgain = true;
      return this.syncing;
    }
    const run = async () => {
      do {
        this.syncAgain = false;
        try {
          await this.refresh();
        } catch (error) {
          if (this.stopped) return;
          this.tracker.noteError(error);
          this.log(`${this.name}: could not re-pick the contracts: ${describeError(error)}`);
        }
      } while (this.syncAgain && !this.stopped);
    };
    this.syncing = run().finally(() => {
      this.syncing = undefined;
    });
    return this.syncing;
  }

  private async refresh(): Promise<void> {
    const ws = this.ws;
    const auth = this.auth;
    if (!ws || !auth || ws.readyState !== WebSocket.OPEN) return;
    const { timeoutMs, backoff } = this.options;
    const picks = await callOutbound(
      {
        attempts: 3,
        attemptTimeoutMs: timeoutMs,
        initialDelayMs: backoff.initialMs,
        maxDelayMs: backoff.maxMs,
        retryIf: (error) => !isRefusal(error),
      },
      (signal) => this.resolve(auth, signal),
      this.abort.signal,
    );
    if (this.ws !== ws) return;
    const old = [...this.subscribed.keys()].filter((token) => !picks.tokens.has(token));
    const added = [...picks.tokens.keys()].filter((token) => !this.subscribed.has(token));
    this.subscribed = picks.tokens;
    if (old.length > 0) this.send(ws, { a: "unsubscribe", v: old });
    if (added.length > 0) {
      this.send(ws, { a: "subscribe", v: added });
      this.send(ws, { a: "mode", v: ["full", added] });
    }
    if (old.length > 0 || added.length > 0)
      this.log(
        `${this.name}: now quoting ${Object.values(picks.contracts).join(", ") || "nothing"}`,
      );
    this.options.onRefresh?.(picks.day, picks.contracts);
  }
}

export function createKiteProvider(options: KiteOptions): Provider {
  return new KiteProvider(options);
}
