/** What a spread's statistics cover (GET /api/spread-stats/:symbol's `coverage`). */
export interface StatisticsCoverage {
  /** The window's end (the latest close's minute end), null while empty. */
  to: number | null;
  /** The oldest close's open time; null where the answer keeps no times (a user spread). */
  first?: number | null;
  closes: number;
  contracts: Readonly<Record<string, string>>;
  /** More of the past is on the way: the first start's backfill, or a provider's fetch. */
  loading?: boolean;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;

/**
 * How much of the window the stored closes span while history loads, in the largest whole unit
 * (docs/history.md, "The first start": until the backfill is stored the window is the live
 * minutes since the start), from its oldest close to its end.
 */
export function coveredSpanText(
  coverage: Pick<StatisticsCoverage, "first" | "to" | "closes">,
): string {
  const { first, to } = coverage;
  // Without the oldest close's time, the closes themselves: one a minute.
  const span =
    first === null || first === undefined || to === null
      ? coverage.closes * MINUTE_MS
      : Math.max(0, to - first);
  if (span >= DAY_MS) return plural(Math.floor(span / DAY_MS), "day");
  if (span >= HOUR_MS) return plural(Math.floor(span / HOUR_MS), "hour");
  return plural(Math.floor(span / MINUTE_MS), "minute");
}

/**
 * What the window covers, for every place a spread's statistics say so: "20 days", or while its
 * past is still loading "3 of 20 days so far — history loading" (or "5 hours of 20 days …").
 */
export function coverageText(days: number, coverage: StatisticsCoverage): string {
  if (!coverage.loading) return `${days} days`;
  // "3 of 20 days", not "3 days of 20 days"; "5 hours of 20 days".
  const span = coveredSpanText(coverage).replace(/ days?$/, "");
  return `${span} of ${days} days so far — history loading`;
}
