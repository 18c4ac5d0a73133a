import {
  EXCHANGES,
  type InstrumentSpec,
  MONTH_SELECTORS,
  type MonthSelector,
  parseInstrumentKey,
} from "@spreadwatch/core";

/** One root of the shipped catalogue not (wholly) in use, with the months still to add. */
export interface RootChoice {
  root: string;
  exchange: InstrumentSpec["exchange"];
  /** The near month's name: "Gold", "Zinc". */
  name: string;
  /** The months an admin can add, nearest first; one `null` entry for spot, index and FX. */
  months: { month: MonthSelector | null; spec: InstrumentSpec }[];
}

/** " MCX (next month)": a later month's name past the root's ("Gold"). */
const MONTH_NOTE = / \S+ \((next|far) month\)$/;

/**
 * The shipped instruments not in use, by root: a future's three months are one choice with a
 * month to pick (GOLD near is in use, so GOLD offers next and far). In exchange order, then by
 * root.
 */
export function rootChoices(available: readonly InstrumentSpec[]): RootChoice[] {
  const byRoot = new Map<string, RootChoice>();
  for (const spec of available) {
    const root = spec.month === null ? spec.key : parseInstrumentKey(spec.key).root;
    const choice = byRoot.get(root) ?? {
      root,
      exchange: spec.exchange,
      name: spec.name.replace(MONTH_NOTE, ""),
      months: [],
    };
    choice.months.push({ month: spec.month, spec });
    byRoot.set(root, choice);
  }
  const order = (m: MonthSelector | null) => (m === null ? -1 : MONTH_SELECTORS.indexOf(m));
  const exchangeRank = (c: RootChoice) => EXCHANGES.indexOf(c.exchange);
  return [...byRoot.values()]
    .map((choice) => ({
      ...choice,
      months: choice.months.sort((a, b) => order(a.month) - order(b.month)),
    }))
    .sort((a, b) => exchangeRank(a) - exchangeRank(b) || a.root.localeCompare(b.root));
}

/** "Near month (ZINC)", "Next month (GOLD@next)". */
export function monthChoiceLabel(month: MonthSelector, key: string): string {
  return `${month.charAt(0).toUpperCase()}${month.slice(1)} month (${key})`;
}

/** The form field a server sentence such as "lotUnits: must be a positive number" names. */
export function fieldNamed(message: string | undefined): string | undefined {
  return message ? /^([a-zA-Z]+(?:\.[a-zA-Z]+)?):/.exec(message)?.[1] : undefined;
}

/**
 * The root and key the catalogue fields stand at: the admin's pick while it is still available,
 * else the first root and its nearest month (after an add, the added month is gone).
 */
export function resolvePick(
  choices: readonly RootChoice[],
  pick: { root?: string; key?: string },
): { choice?: RootChoice; key?: string } {
  const choice = choices.find((c) => c.root === pick.root) ?? choices[0];
  if (!choice) return {};
  const month = choice.months.find((m) => m.spec.key === pick.key) ?? choice.months[0];
  return { choice, key: month?.spec.key };
}
