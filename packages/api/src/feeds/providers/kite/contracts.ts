import type { onceLogger } from "../provider.ts";
import type { Auth } from "./credentials.ts";
import {
  fetchInstruments,
  istDate,
  KITE_TARGETS,
  type KiteInstrument,
  pickInstrument,
} from "./instruments.ts";

export interface KiteContractsOptions {
  name: string;
  keys: readonly string[];
  apiRoot: string;
  rollDaysBeforeExpiry: number;
  /** The clock contracts are picked by (tests move it to cross an expiry). */
  dateNow: () => number;
  note: ReturnType<typeof onceLogger>;
}

function describeContract(instrument: KiteInstrument): string {
  return instrument.expiry
    ? `${instrument.tradingsymbol} (expires ${instrument.expiry})`
    : instrument.tradingsymbol;
}

/**
 * Which exchange contract each key is today: picked from Kite's instruments lists, which are
 * downloaded once per IST day (and again for a new token).
 */
export class KiteContracts {
  private cache: { day: string; accessToken: string; rows: KiteInstrument[] } | undefined;

  constructor(private readonly options: KiteContractsOptions) {}

  /** Instrument token → key, and key → a readable contract name; `signal` bounds the downloads. */
  async pick(
    auth: Auth,
    signal: AbortSignal,
  ): Promise<{ tokens: Map<number, string>; contracts: Record<string, string> }> {
    const { keys, name } = this.options;
    const day = istDate(this.options.dateNow());
    const rows = await this.rows(day, auth, signal);
    const tokens = new Map<number, string>();
    const contracts: Record<string, string> = {};
    for (const key of keys) {
      const target = KITE_TARGETS[key];
      const pick = target && pickInstrument(rows, target, day, this.options.rollDaysBeforeExpiry);
      this.options.note(
        key,
        pick ? undefined : `${name}: Kite's instruments list has nothing for ${key}`,
      );
      if (!pick) continue;
      tokens.set(pick.token, key);
      contracts[key] = describeContract(pick);
    }
    return { tokens, contracts };
  }

  private async rows(day: string, auth: Auth, signal: AbortSignal): Promise<KiteInstrument[]> {
    if (this.cache?.day === day && this.cache.accessToken === auth.accessToken)
      return this.cache.rows;
    const exchanges = new Set(
      this.options.keys.flatMap((k) => {
        const exchange = KITE_TARGETS[k]?.exchange;
        return exchange ? [exchange] : [];
      }),
    );
    const lists = await Promise.all(
      [...exchanges].map((exchange) =>
        fetchInstruments(this.options.apiRoot, exchange, auth, signal),
      ),
    );
    this.cache = { day, accessToken: auth.accessToken, rows: lists.flat() };
    return this.cache.rows;
  }
}
