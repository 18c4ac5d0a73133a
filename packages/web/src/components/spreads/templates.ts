import {
  basisSpread,
  calendarSpread,
  type Exchange,
  groupOfExchange,
  MONTH_SELECTORS,
  type MonthSelector,
  miniSpread,
  paritySpread,
  parseInstrumentKey,
  ratioSpread,
  type SpreadDefinitionInput,
} from "@spreadwatch/core";

// The builder's templates (docs/formulas.md "Templates"): a few choices that write a
// definition's legs and formula with core's template functions, the ones the server's
// built-ins use.

export const TEMPLATE_KINDS = ["calendar", "parity", "ratio", "mini", "basis"] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

// Short enough for the Template select on a 390 px phone; the fields under it say the rest.
export const TEMPLATE_LABELS: Readonly<Record<TemplateKind, string>> = {
  calendar: "Calendar: two months",
  parity: "Parity: MCX vs CME",
  ratio: "Ratio: a ÷ b",
  mini: "Mini vs big",
  basis: "Future vs spot",
};

/** An instrument a leg can name: one in use or one the catalogue ships (`instruments.list`). */
export interface InstrumentChoice {
  key: string;
  exchange: Exchange;
  name: string;
  month: MonthSelector | null;
}

export interface TemplateChoices {
  root: string;
  first: MonthSelector;
  second: MonthSelector;
  mcx: string;
  cme: string;
  factor: string;
  duty: string;
  a: string;
  b: string;
  mini: string;
  big: string;
  future: string;
  spot: string;
}

export const DEFAULT_CHOICES: TemplateChoices = {
  root: "GOLD",
  first: "near",
  second: "next",
  mcx: "GOLD",
  cme: "GC",
  factor: "10 / TROY_OUNCE_GRAMS",
  duty: "0.06",
  a: "GOLD",
  b: "SILVER",
  mini: "GOLDM",
  big: "GOLD",
  future: "GC",
  spot: "XAUUSD",
};

/**
 * The unit factor of the built-in parities (CME unit → MCX unit), offered when the MCX future is
 * one of theirs; any other starts at 1 for the trader to set.
 */
const PARITY_FACTORS: Readonly<Record<string, string>> = {
  GOLD: "10 / TROY_OUNCE_GRAMS",
  GOLDM: "10 / TROY_OUNCE_GRAMS",
  SILVER: "1000 / TROY_OUNCE_GRAMS",
  SILVERM: "1000 / TROY_OUNCE_GRAMS",
  SILVERMIC: "1000 / TROY_OUNCE_GRAMS",
  COPPER: "POUNDS_PER_KG",
};

export function parityFactorFor(mcxKey: string): string {
  return PARITY_FACTORS[parseInstrumentKey(mcxKey).root] ?? "1";
}

/** The choices each template's selects offer, from the instruments a leg can name. */
export function templateOptions(instruments: readonly InstrumentChoice[]) {
  const futures = instruments.filter((i) => i.month !== null);
  const keys = (list: readonly InstrumentChoice[]) => list.map((i) => i.key);
  return {
    roots: [...new Set(futures.map((i) => parseInstrumentKey(i.key).root))],
    mcxFutures: keys(futures.filter((i) => groupOfExchange(i.exchange) === "mcx")),
    cmeFutures: keys(futures.filter((i) => groupOfExchange(i.exchange) === "cme")),
    futures: keys(futures),
    singles: keys(instruments.filter((i) => i.month === null)),
    all: keys(instruments),
  };
}

export const MONTHS: readonly MonthSelector[] = MONTH_SELECTORS;

/**
 * The legs, formula and name a template writes, or the sentence saying why it cannot (two equal
 * months, a duty that is not a fraction).
 */
/**
 * A calendar trades one lot of each month, so the definition has rupee units and its Net / lot
 * reads a figure, not "–" (docs/formulas.md, "Net / lot").
 */
function withOneLotEach(made: SpreadDefinitionInput): SpreadDefinitionInput {
  return { ...made, legs: made.legs.map((leg) => ({ ...leg, lots: 1 })) };
}

export function fromTemplate(
  kind: TemplateKind,
  c: TemplateChoices,
): SpreadDefinitionInput | string {
  switch (kind) {
    case "calendar":
      if (c.first === c.second) return "Pick two different months.";
      return withOneLotEach(calendarSpread(c.root, c.first, c.second));
    case "parity": {
      const duty = Number(c.duty);
      if (c.duty.trim() === "" || !Number.isFinite(duty) || duty < 0 || duty >= 1)
        return "Duty is a fraction from 0 to below 1, e.g. 0.06 for 6 %.";
      if (c.factor.trim() === "") return "Enter the unit factor, e.g. 10 / TROY_OUNCE_GRAMS.";
      return paritySpread(c.mcx, c.cme, c.factor.trim(), duty);
    }
    case "ratio":
      return c.a === c.b ? "Pick two different instruments." : ratioSpread(c.a, c.b);
    case "mini":
      return c.mini === c.big ? "Pick two different instruments." : miniSpread(c.mini, c.big);
    case "basis":
      return basisSpread(c.future, c.spot);
  }
}
