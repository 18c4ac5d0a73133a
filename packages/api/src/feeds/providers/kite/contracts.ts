import type { InstrumentSpec, QuoteSource } from "@spreadwatch/core";
import type { onceLogger } from "../provider.ts";
import { groupOf } from "../quote-keys.ts";
import type { Auth } from "./credentials.ts";
import {
  fetchInstruments,
  istDate,
  type KiteExchange,
  type KiteInstrument,
  kiteTarget,
  resolveTarget,
} from "./instruments.ts";

/** Kite streams at most this many instruments on one ticker connection. */
export const KITE_INSTRUMENTS_PER_CONNECTION = 3_000;

export interface KiteContractsOptions {
  name: string;
  apiRoot: string;
  rollDaysBeforeExpiry: number;
  /** Distinct instrument tokens one connection subscribes at most (Kite's limit). */
  maxInstruments: number;
  /** The clock contracts are picked by (tests move it to cross an expiry). */
  dateNow: () => number;
  note: ReturnType<typeof onceLogger>;
}

/** One subscribed instrument token: the row it is, and the keys (usually one) quoted from it. */
export interface KitePick {
  instrument: KiteInstrument;
  keys: Array<{ key: string; source: QuoteSource }>;
}

export interface KitePicks {
  /** Instrument token → what it quotes, in the order of the keys. */
  tokens: Map<number, KitePick>;
  /** Key → a readable contract name, for health. */
  contracts: Record<string, string>;
  /** Key → why Kite cannot quote it today. */
  missing: Record<string, string>;
  /** The IST day the picks are for. */
  day: string;
}

function describeContract(instrument: KiteInstrument): string {
  return instrument.expiry
    ? `${instrument.tradingsymbol} (expires ${instrument.expiry})`
    : instrument.tradingsymbol;
}

/** A key's price group: its spec's, else the list it comes from. */
function sourceOf(spec: InstrumentSpec | undefined, exchange: KiteExchange): QuoteSource {
  const group = groupOf(spec);
  if (group) return group;
  if (exchange === "MCX") return "mcx";
  return exchange === "CDS" ? "fx" : "index";
}

/**
 * Which exchange contract each key is today: picked from Kite's instruments lists, each
 * downloaded once per IST day (and again for a new token), and only for the exchanges in use.
 */
export class KiteContracts {
  private cache:
    | { day: string; accessToken: string; lists: Map<KiteExchange, KiteInstrument[]> }
    | undefined;

  constructor(private readonly options: KiteContractsOptions) {}

  /** Today's picks for `instruments` (key → its spec, if known); `signal` bounds the downloads. */
  async pick(
    instruments: ReadonlyMap<string, InstrumentSpec | undefined>,
    auth: Auth,
    signal: AbortSignal,
  ): Promise<KitePicks> {
    const { name, maxInstruments } = this.options;
    const day = istDate(this.options.dateNow());
    const targets = [...instruments].map(([key, spec]) => ({
      key,
      spec,
      target: kiteTarget(key, spec),
    }));
    const exchanges = new Set(
      targets.flatMap(({ target }) => ("exchange" in target ? [target.exchange] : [])),
    );
    const lists = await this.lists(day, auth, [...exchanges], signal);
    const tokens = new Map<number, KitePick>();
    const contracts: Record<string, string> = {};
    const missing: Record<string, string> = {};
    for (const { key, spec, target } of targets) {
      const resolved =
        "missing" in target
          ? target
          : resolveTarget(
              lists.get(target.exchange) ?? [],
              target,
              day,
              this.options.rollDaysBeforeExpiry,
            );
      let reason = "missing" in resolved ? resolved.missing : undefined;
      if ("instrument" in resolved) {
        const { instrument } = resolved;
        const pick = tokens.get(instrument.token);
        if (!pick && tokens.size >= maxInstruments) {
          reason = `over Kite's limit of ${maxInstruments} instruments per connection`;
        } else {
          const source = sourceOf(spec, "exchange" in target ? target.exchange : "MCX");
          if (pick) pick.keys.push({ key, source });
          else tokens.set(instrument.token, { instrument, keys: [{ key, source }] });
          contracts[key] = describeContract(instrument);
        }
      }
      if (reason) missing[key] = reason;
      this.options.note(key, reason && `${name}: ${key}: ${reason}`);
    }
    return { tokens, contracts, missing, day };
  }

  /** The day's lists of these exchanges: kept from earlier downloads, the rest fetched now. */
  private async lists(
    day: string,
    auth: Auth,
    exchanges: readonly KiteExchange[],
    signal: AbortSignal,
  ): Promise<Map<KiteExchange, KiteInstrument[]>> {
    if (this.cache?.day !== day || this.cache.accessToken !== auth.accessToken)
      this.cache = { day, accessToken: auth.accessToken, lists: new Map() };
    const cache = this.cache;
    const wanted = exchanges.filter((exchange) => !cache.lists.has(exchange));
    const fetched = await Promise.all(
      wanted.map((exchange) => fetchInstruments(this.options.apiRoot, exchange, auth, signal)),
    );
    wanted.forEach((exchange, i) => {
      cache.lists.set(exchange, fetched[i] ?? []);
    });
    return cache.lists;
  }
}
