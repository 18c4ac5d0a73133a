import {
  type BookEntry,
  instrument,
  type PriceEntry,
  type Prices,
  parseSpreadSymbol,
  SPREAD_SYMBOLS,
  type SpreadSymbol,
} from "@spreadwatch/core";
import type { ProviderHealth } from "../feeds/providers/health.ts";

export interface LegWatchOptions {
  /** Without a quote for this long a leg is stale (FEED_SILENCE_SECONDS); a provider's own wins. */
  silenceMs: number;
  /** The feed's provider reports: their state, market hours and silence windows. */
  providers?: () => readonly ProviderHealth[];
  /** This server's clock (tests). */
  now?: () => number;
}

interface Leg {
  /** "CME GC", "MCX GOLD", "USDINR": as the dashboard names them. */
  label: string;
  /** Where its quotes come from; with `key`, how arrivals are found. */
  source: string;
  /** The quote key a provider serves. */
  key: string;
  read(prices: Readonly<Prices>): BookEntry | PriceEntry | undefined;
}

/** A spread's three inputs: its CME and MCX books and USDINR. */
function legsOf(symbol: SpreadSymbol): Leg[] {
  const inst = instrument(parseSpreadSymbol(symbol).id);
  return [
    {
      label: `CME ${inst.cmeKey}`,
      source: "cme",
      key: inst.cmeKey,
      read: (p) => p.cme[inst.cmeKey],
    },
    {
      label: `MCX ${inst.mcxKey}`,
      source: "mcx",
      key: inst.mcxKey,
      read: (p) => p.mcx[inst.mcxKey],
    },
    { label: "USDINR", source: "fx", key: "USDINR", read: (p) => p.fx.USDINR },
  ];
}

const LEGS = new Map(SPREAD_SYMBOLS.map((s) => [s, legsOf(s)]));

/** Provider reports are built per call; once a second is plenty for states that change slowly. */
const PROVIDER_REFRESH_MS = 1_000;

/**
 * Whether a spread's inputs can be acted on, as the dashboard greys its rows (docs/issues/10.md): a leg
 * silent for longer than its silence window, a crossed book, a provider that is down, not
 * configured or whose market is closed makes the spread "held". Silence is measured on this
 * server's clock from when each quote arrived (as feed health does), never from the quotes' own
 * times: a delayed source that delivers on time is live, and a replay is judged as it plays.
 */
export class LegWatch {
  /** When each source's keys last quoted: by source, then key (no string built per quote). */
  private readonly arrivedAt = new Map<string, Map<string, number>>();
  private readonly now: () => number;
  /** Legs quoted before the engine started count as arrived then: they get one window. */
  private startedAt: number;
  private providers: { at: number; byKey: Map<string, ProviderHealth> } | undefined;

  constructor(private readonly options: LegWatchOptions) {
    this.now = options.now ?? Date.now;
    this.startedAt = this.now();
  }

  /** A new term as leader: arrivals seen before are forgotten, every leg gets one window. */
  reset(): void {
    this.arrivedAt.clear();
    this.startedAt = this.now();
    this.providers = undefined;
  }

  /** Every quote the hub accepted. */
  arrived(source: string, key: string, at = this.now()): void {
    let keys = this.arrivedAt.get(source);
    if (!keys) {
      keys = new Map();
      this.arrivedAt.set(source, keys);
    }
    keys.set(key, at);
  }

  /** Why `symbol`'s spread must not fire alerts now, e.g. "Held: CME GC quote stale (no quote for 12 s)". */
  holdReason(symbol: SpreadSymbol, prices: Readonly<Prices>, now = this.now()): string | undefined {
    for (const leg of LEGS.get(symbol) ?? []) {
      const why = this.legProblem(leg, prices, now);
      if (why !== undefined) return `Held: ${why}`;
    }
    return undefined;
  }

  private legProblem(leg: Leg, prices: Readonly<Prices>, now: number): string | undefined {
    const entry = leg.read(prices);
    if (!entry) return `${leg.label} quote missing`;
    const book = entry as BookEntry;
    if (book.bid !== undefined && book.ask !== undefined && book.bid > book.ask) {
      return `${leg.label} book crossed`;
    }
    const provider = this.provider(leg.key, now);
    if (provider?.state === "down") return `${leg.label} feed down`;
    if (provider?.state === "not_configured") return `${leg.label} feed not configured`;
    if (provider?.marketOpen === false) return `${leg.label} market closed`;
    const silenceMs = provider?.silenceMs ?? this.options.silenceMs;
    const silentMs = now - (this.arrivedAt.get(leg.source)?.get(leg.key) ?? this.startedAt);
    if (silentMs > silenceMs) {
      return `${leg.label} quote stale (no quote for ${Math.floor(silentMs / 1000)} s)`;
    }
    return undefined;
  }

  private provider(key: string, now: number): ProviderHealth | undefined {
    if (!this.options.providers) return undefined;
    if (!this.providers || now - this.providers.at >= PROVIDER_REFRESH_MS) {
      const byKey = new Map<string, ProviderHealth>();
      for (const provider of this.options.providers()) {
        for (const k of provider.keys) byKey.set(k, provider);
      }
      this.providers = { at: now, byKey };
    }
    return this.providers.byKey.get(key);
  }
}
