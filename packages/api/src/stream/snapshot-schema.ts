import {
  type BookEntry,
  type CalculationEntry,
  CME_CONTRACT_KEYS,
  type ContractEntry,
  type CostBreakdown,
  type DefinitionPerLot,
  MCX_LOT_KEYS,
  type PerLot,
  type PriceEntry,
  type Prices,
  SPREAD_SYMBOLS,
  type SpreadSymbol,
} from "@spreadwatch/core";
import { z } from "zod";
import type {
  DefinitionEntry,
  DefinitionLegValue,
  HubCalculations,
} from "../market/live-definition.ts";
import type { ShapeOf } from "../shared-schemas.ts";

// The wire shapes of GET /api/prices and /api/calculations, from core's types. Keys come from
// core's own lists, so an instrument added there is added here too.

const marks = { delayed: z.literal(true).optional(), lastOnly: z.literal(true).optional() };

// In the order the hub writes them: parsing keeps the schema's key order.
const bookEntry = z.object({
  timestamp: z.number(),
  bid: z.number().optional(),
  ask: z.number().optional(),
  ...marks,
} satisfies ShapeOf<BookEntry>);

const priceEntry = z.object({
  ...marks,
  price: z.number(),
  timestamp: z.number(),
} satisfies ShapeOf<PriceEntry>);

const contractEntry = z.object({
  contract: z.string(),
  expiry: z.string().optional(),
} satisfies ShapeOf<ContractEntry>);

// The fifteen built-in keys keep their places; any other instrument in use is listed by its key.
const anyKey = z.string();

// /api/prices adds the contract a future's price is of to its entry (market/prices-with-contracts.ts).
const contract = { contract: z.string().optional() };
const pricedBook = bookEntry.extend(contract);
const pricedEntry = priceEntry.extend(contract);

export const marketPrices = z.object({
  cme: z.partialRecord(anyKey, pricedBook),
  mcx: z.partialRecord(anyKey, pricedBook),
  spot: z.partialRecord(anyKey, pricedEntry),
  zerodha: z
    .object({ nifty50: pricedEntry.optional(), giftnifty: pricedEntry.optional() })
    .catchall(pricedEntry.optional()),
  fx: z.object({ USDINR: pricedEntry.optional() }).catchall(pricedEntry.optional()),
  contracts: z.partialRecord(anyKey, contractEntry).optional(),
  timestamp: z.number().nullable(),
} satisfies ShapeOf<Prices>);

const breakdown = z.object({
  mcxTurnover: z.number(),
  brokerage: z.number(),
  exchange: z.number(),
  sebi: z.number(),
  ctt: z.number(),
  stt: z.number().optional(),
  stampDuty: z.number(),
  gst: z.number(),
  cme: z.number(),
  cmeUsd: z.number(),
} satisfies ShapeOf<CostBreakdown>);

const perLot = z.object({
  contract: z.enum(MCX_LOT_KEYS),
  units: z.number(),
  grossInr: z.number(),
  costsInr: z.number(),
  netInr: z.number(),
  hedge: z.object({
    contract: z.enum(CME_CONTRACT_KEYS),
    contracts: z.number(),
    unhedgedUnits: z.number(),
  } satisfies ShapeOf<PerLot["hedge"]>),
  breakdown,
} satisfies ShapeOf<PerLot>);

/** One lot of a definition whose legs have lots (docs/formulas.md, "Net / lot"). */
const definitionPerLot = z.object({
  units: z.number(),
  grossInr: z.number(),
  costsInr: z.number(),
  netInr: z.number(),
  breakdown,
} satisfies ShapeOf<DefinitionPerLot>);

const spreadSymbol = z.enum(SPREAD_SYMBOLS as [SpreadSymbol, ...SpreadSymbol[]]);

const calculationEntry = z.object({
  symbol: spreadSymbol,
  spread: z.number(),
  cme: z.number(),
  mcx: z.number(),
  parity: z.number(),
  usdinr: z.number(),
  perLot: perLot.optional(),
} satisfies ShapeOf<CalculationEntry>);

const definitionLeg = z.object({
  price: z.number(),
  side: z.enum(["bid", "ask"]),
  instrument: z.string(),
} satisfies ShapeOf<DefinitionLegValue>);

/** A spread definition's BUY or SELL (docs/formulas.md): SP7_BUY, SP7_SELL. */
const definitionEntry = z.object({
  symbol: z.templateLiteral(["SP", z.number(), "_", z.enum(["BUY", "SELL"])]),
  spread: z.number(),
  mid: z.number().optional(),
  legs: z.record(z.string(), definitionLeg),
  perLot: definitionPerLot.optional(),
} satisfies ShapeOf<DefinitionEntry>);

/**
 * One entry per computable symbol (absent when an input is missing), plus `timestamp`: the
 * built-ins' by name, then the definitions' the viewer may see.
 */
export const marketCalculations = z
  .object({
    timestamp: z.number().nullable(),
    ...(Object.fromEntries(SPREAD_SYMBOLS.map((s) => [s, calculationEntry.optional()])) as Record<
      SpreadSymbol,
      z.ZodOptional<typeof calculationEntry>
    >),
  })
  // Typed as the hub's calculations: zod types a catchall as every key's, timestamp included.
  .catchall(definitionEntry) as unknown as z.ZodType<HubCalculations>;
