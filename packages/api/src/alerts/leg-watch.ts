import {
  type BookEntry,
  instrument,
  type PriceEntry,
  type Prices,
  parseSpreadSymbol,
  priceField,
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
  /** "CME GC", "MCX GOLD", "USDINR": as the dashboard's price table names the row. */
  label(prices: Readonly<Prices>): string;
  /** The quote key a provider serves; how arrivals are found. */
  key: string;
  read(prices: Readonly<Prices>): BookEntry | PriceEntry | undefined;
}

/** A built-in spread's three inputs: its CME and MCX books and USDINR. */
function legsOf(symbol: SpreadSymbol): Leg[] {
  const inst = instrument(parseSpreadSymbol(symbol).id);
  const fixed = (label: string, key: string, read: Leg["read"]): Leg => ({
    label: () => label,
    key,
    read,
  });
  return [
    fixed(`CME ${inst.cmeKey}`, inst.cmeKey, (p) => p.cme[inst.cmeKey]),
    fixed(`MCX ${inst.mcxKey}`, inst.mcxKey, (p) => p.mcx[inst.mcxKey]),
    fixed("USDINR", "USDINR", (p) => p.fx.USDINR),
  ];
}

const BUILT_IN_LEGS = new Map<string, readonly Leg[]>(SPREAD_SYMBOLS.map((s) => [s, legsOf(s)]));

/**
 * A definition's leg on catalogue instrument `key`, wherever its price is listed (a key is
 * unique across the groups, as core's bookIn reads it).
 */
function instrumentLeg(key: string): Leg {
  const field = priceField(key);
  return {
    label: (p) => (p.mcx[key] ? `MCX ${key}` : p.cme[key] ? `CME ${key}` : key),
    key,
    read: (p) => p.mcx[key] ?? p.cme[key] ?? p.fx[key] ?? p.spot[key] ?? p.zerodha[field],
  };
}

/** Provider reports are built per call; once a second is plenty for states that change slowly. */
const PROVIDER_REFRESH_MS = 1_000;

/**
 * Whether a spread's inputs can be acted on, as the dashboard greys its rows (docs/user-guide.md,
 * "Spread alerts": held, never fired on a frozen price): a leg silent for longer than its silence
 * window, a crossed book, a provider that is down, not configured or whose market is closed makes
 * the spread "held". Silence is measured on this server's clock from when each quote arrived (as
 * feed health does), never from the quotes' own times: a delayed source that delivers on time is
 * live, and a replay is judged as it plays.
 */
export class LegWatch {
  /** When each key last quoted (keys are unique across sources). */
  private readonly arrivedAt = new Map<string, number>();
  /** The legs of the definitions' symbols (SP7_BUY → its instruments), kept by the engine. */
  private readonly definitionLegs = new Map<string, readonly Leg[]>();
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

  /** Every quote the hub accepted, by its key (unique across the sources). */
  arrived(key: string, at = this.now()): void {
    this.arrivedAt.set(key, at);
  }

  /** A definition's symbol (SP7_BUY) is built from these catalogue instruments (its legs'). */
  setLegs(symbol: string, instruments: readonly string[]): void {
    this.definitionLegs.set(symbol, [...new Set(instruments)].map(instrumentLeg));
  }

  /** The definition is gone: its symbol has no legs to watch. */
  forgetLegs(symbol: string): void {
    this.definitionLegs.delete(symbol);
  }

  /** Why `symbol`'s spread must not fire alerts now, e.g. "Held: CME GC quote stale (no quote for 12 s)". */
  holdReason(symbol: string, prices: Readonly<Prices>, now = this.now()): string | undefined {
    for (const leg of BUILT_IN_LEGS.get(symbol) ?? this.definitionLegs.get(symbol) ?? []) {
      const why = this.legProblem(leg, prices, now);
      if (why !== undefined) return `Held: ${why}`;
    }
    return undefined;
  }

  private legProblem(leg: Leg, prices: Readonly<Prices>, now: number): string | undefined {
    const entry = leg.read(prices);
    if (!entry) return `${leg.label(prices)} quote missing`;
    const book = entry as BookEntry;
    if (book.bid !== undefined && book.ask !== undefined && book.bid > book.ask) {
      return `${leg.label(prices)} book crossed`;
    }
    const provider = this.provider(leg.key, now);
    if (provider?.state === "down") return `${leg.label(prices)} feed down`;
    if (provider?.state === "not_configured") return `${leg.label(prices)} feed not configured`;
    if (provider?.marketOpen === false) return `${leg.label(prices)} market closed`;
    const silenceMs = provider?.silenceMs ?? this.options.silenceMs;
    const silentMs = now - (this.arrivedAt.get(leg.key) ?? this.startedAt);
    if (silentMs > silenceMs) {
      return `${leg.label(prices)} quote stale (no quote for ${Math.floor(silentMs / 1000)} s)`;
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
