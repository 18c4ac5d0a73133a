import {
  type ContractEntry,
  CURRENCIES,
  EXCHANGES,
  type InstrumentSpec,
  MONTH_SELECTORS,
  PROVIDER_KINDS,
} from "@spreadwatch/core";
import { z } from "zod";
import type { ProviderHealth } from "../feeds/providers/health.ts";

// An instrument as GET /api/instruments shows it: its spec, and what the live feed says of it.

const specFields = {
  key: z.string(),
  exchange: z.enum(EXCHANGES),
  name: z.string(),
  unit: z.string(),
  currency: z.enum(CURRENCIES),
  lotUnits: z.number(),
  tick: z.number(),
  decimals: z.number(),
  month: z.enum(MONTH_SELECTORS).nullable(),
};

/** A shipped instrument not in use: what an admin can add by its key alone. */
export const availableInstrument = z.object(specFields);

export const instrumentView = z.object({
  ...specFields,
  /** The exchange contract its quotes name now (GOLD26FEBFUT), null until one does. */
  contract: z.string().nullable(),
  expiry: z.string().nullable(),
  /** The provider (market data config name) that serves it, null when none does. */
  provider: z.string().nullable(),
  /** One of the fifteen every server quotes: never removed. */
  builtIn: z.boolean(),
  source: z.object({ provider: z.enum(PROVIDER_KINDS), symbol: z.string() }).nullable(),
  /** Why no provider serves it ("no far contract for GOLD in Kite's instruments list"). */
  missing: z.string().nullable(),
});

export type InstrumentView = z.infer<typeof instrumentView>;

export interface LiveState {
  contracts: Partial<Record<string, ContractEntry>> | undefined;
  providers: readonly ProviderHealth[];
}

export function viewOf(spec: InstrumentSpec, builtIn: boolean, live: LiveState): InstrumentView {
  const contract = live.contracts?.[spec.key];
  // A provider may list a key it was asked for and still lack it (no far contract listed).
  const serving = live.providers.find((p) => p.keys.includes(spec.key) && !p.missing?.[spec.key]);
  const missing = serving
    ? undefined
    : live.providers.map((p) => p.missing?.[spec.key]).find((why) => why !== undefined);
  return {
    key: spec.key,
    exchange: spec.exchange,
    name: spec.name,
    unit: spec.unit,
    currency: spec.currency,
    lotUnits: spec.lotUnits,
    tick: spec.tick,
    decimals: spec.decimals,
    month: spec.month,
    contract: contract?.contract ?? null,
    expiry: contract?.expiry ?? null,
    provider: serving?.name ?? null,
    builtIn,
    source: spec.source ?? null,
    missing: missing ?? null,
  };
}
