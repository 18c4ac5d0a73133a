import {
  BUILT_IN_KEYS,
  type InstrumentSpec,
  type ProviderKind,
  type Quote,
} from "@spreadwatch/core";
import type { Feed } from "../feed.ts";
import { describeError } from "./health.ts";
import { defaultLogger, type Logger, type Provider } from "./provider.ts";

export interface CompositeEntry {
  provider: Provider;
  /** Its `type` in the market data config: where instruments without a listed key go. */
  kind: ProviderKind;
  /** The keys its config names (or its defaults): they go to it whatever their source says. */
  keys: readonly string[];
}

/**
 * The provider kind an instrument goes to when no config lists its key and it names no source
 * (docs/market-data.md, "Adding an instrument"): Kite for MCX, NSE and currency futures, NSE indices and USDINR, Yahoo for the CME exchanges,
 * spot and other FX; nothing serves NSEIX (GIFT NIFTY) by default.
 */
export function defaultKind(spec: InstrumentSpec): ProviderKind | undefined {
  switch (spec.exchange) {
    case "MCX":
    case "NFO":
    case "CDS":
    case "NSE":
      return "kite";
    case "FX":
      return spec.key === "USDINR" ? "kite" : "yahoo";
    case "NSEIX":
      return undefined;
    default:
      return "yahoo";
  }
}

/**
 * Which provider quotes each instrument in use: the one whose config lists its key; else, for an
 * instrument an admin added, the first of the kind its `source` names, or its exchange's default
 * kind. The fifteen built-in keys come only from where the config puts them (a provider's `keys`,
 * or its defaults when it names none), as they always have: an operator who left GC out of
 * Yahoo's keys meant it. `routes[i]` are the instruments of `providers[i]`; `missing` says why no
 * provider has the rest.
 */
export function routeInstruments(
  providers: readonly Pick<CompositeEntry, "kind" | "keys">[],
  instruments: readonly InstrumentSpec[],
): { routes: InstrumentSpec[][]; missing: Record<string, string> } {
  const listed = new Map<string, number>();
  providers.forEach(({ keys }, i) => {
    for (const key of keys) if (!listed.has(key)) listed.set(key, i);
  });
  const routes = providers.map((): InstrumentSpec[] => []);
  const missing: Record<string, string> = {};
  for (const spec of instruments) {
    const kind = spec.source?.provider ?? defaultKind(spec);
    const builtIn = BUILT_IN_KEYS.includes(spec.key as (typeof BUILT_IN_KEYS)[number]);
    const index =
      listed.get(spec.key) ?? (builtIn ? -1 : providers.findIndex((p) => p.kind === kind));
    if (index >= 0) routes[index]?.push(spec);
    else if (builtIn)
      missing[spec.key] = `no provider in MARKET_DATA_CONFIG lists ${spec.key} in its keys`;
    else if (kind === undefined)
      missing[spec.key] =
        `no provider serves ${spec.exchange} instruments by default: name ${spec.key} in a provider's keys in MARKET_DATA_CONFIG`;
    else missing[spec.key] = `no ${kind} provider in MARKET_DATA_CONFIG for ${spec.key}`;
  }
  return { routes, missing };
}

/**
 * Several providers behind one feed, each key taken from exactly one of them: a quote for a key
 * routed elsewhere is dropped, so two sources never fight over a row. Until `setInstruments` the
 * keys are those of the config; after it, the instruments in use, routed by `routeInstruments`.
 */
export function createCompositeFeed(
  providers: readonly CompositeEntry[],
  options: { staleAfterMs?: number; log?: Logger } = {},
): Feed {
  const log = options.log ?? defaultLogger;
  let owner = new Map<string, Provider>();
  for (const { provider, keys } of providers) for (const key of keys) owner.set(key, provider);
  /** Instruments in use that no provider takes: reported with the first provider's health. */
  let unrouted: Record<string, string> = {};

  return {
    name: "composite",
    ...(options.staleAfterMs !== undefined && { staleAfterMs: options.staleAfterMs }),
    setInstruments(instruments) {
      const { routes, missing } = routeInstruments(providers, instruments);
      const next = new Map<string, Provider>();
      providers.forEach(({ provider }, i) => {
        const mine = routes[i] ?? [];
        for (const spec of mine) next.set(spec.key, provider);
        try {
          provider.setInstruments?.(mine);
        } catch (error) {
          log(`${provider.name}: could not take the instruments in use: ${describeError(error)}`);
        }
      });
      owner = next;
      unrouted = missing;
    },
    start(onQuote) {
      for (const { provider } of providers) {
        const deliver = (quote: Quote) => {
          if (owner.get(quote.key) !== provider) return;
          try {
            onQuote(quote);
          } catch (error) {
            log(`${provider.name}: a quote could not be delivered: ${describeError(error)}`);
          }
        };
        try {
          provider.start(deliver);
        } catch (error) {
          log(`${provider.name}: could not start: ${describeError(error)}`);
        }
      }
    },
    async stop() {
      await Promise.all(
        providers.map(async ({ provider }) => {
          try {
            await provider.stop();
          } catch (error) {
            log(`${provider.name}: could not stop cleanly: ${describeError(error)}`);
          }
        }),
      );
    },
    health: () =>
      providers.map(({ provider }, i) => {
        const health = provider.health();
        if (i > 0 || Object.keys(unrouted).length === 0) return health;
        return { ...health, missing: { ...health.missing, ...unrouted } };
      }),
  };
}
