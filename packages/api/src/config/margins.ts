import { defaultMarginRates, FUTURES, type MarginRates } from "@spreadwatch/core";
import { z } from "zod";

/**
 * The configured margin rates of positions (docs/operations.md "Margin of a position") as env
 * settings, one variable per rate, like the COST_* settings: a desk sets the figures its broker
 * shows today and keeps the rest. Unset means core's `defaultMarginRates()`.
 *
 * Those defaults are placeholders of the right order, not anyone's published figures: exchanges
 * set margins daily from SPAN and volatility, so no fixed number stays right. They approximate
 * the shape of the published schedules — MCX's daily SPAN + ELM files (roughly a tenth of the
 * contract value for bullion and base metals, a third for energy in volatile weeks) and CME
 * Group's performance-bond tables for COMEX/NYMEX (initial margin per contract) — and were not
 * checked against a current file when written (no web access). An operator sets MARGIN_* from
 * their broker's margin calculator; with a Kite connection, Kite's own figure replaces the MCX
 * part anyway.
 */
const share = z.coerce
  .number({ error: "must be a fraction of the contract value such as 0.1 for 10 %" })
  .min(0, "must be a fraction from 0 to 1 (0.1 = 10 % of the contract value)")
  .max(1, "must be a fraction from 0 to 1 (0.1 = 10 % of the contract value)");
const dollars = z.coerce
  .number({ error: "must be an amount ≥ 0 in USD per contract" })
  .min(0, "must be an amount ≥ 0 in USD per contract");

const US_EXCHANGES = new Set(["COMEX", "NYMEX", "CME", "CBOT"]);

/** MCX roots with a share of their own: every MCX future the catalogue ships. */
const MCX_ROOTS = Object.entries(FUTURES)
  .filter(([, base]) => base.exchange === "MCX")
  .map(([root]) => root);

/** US roots with an initial margin of their own: the shipped ones and core's defaults. */
const US_ROOTS = [
  ...new Set([
    ...Object.entries(FUTURES)
      .filter(([, base]) => US_EXCHANGES.has(base.exchange))
      .map(([root]) => root),
    ...Object.keys(defaultMarginRates().usInitialUsd),
  ]),
];

const mcxName = (root: string) => `MARGIN_MCX_${root}_SHARE`;
const usName = (root: string) => `MARGIN_US_${root}_USD`;

export const marginEnvShape = {
  MARGIN_MCX_SHARE: share.optional(),
  ...Object.fromEntries(MCX_ROOTS.map((root) => [mcxName(root), share.optional()])),
  ...Object.fromEntries(US_ROOTS.map((root) => [usName(root), dollars.optional()])),
};

const KNOWN = new Set(Object.keys(marginEnvShape));

/**
 * MARGIN_* variables that set nothing (a typo, or a root without a rate of its own): named so a
 * mistyped MARGIN_MCX_GLOD_SHARE stops the start instead of leaving the default in place unseen.
 */
export function unknownMarginNames(env: Record<string, unknown>): string[] {
  return Object.keys(env).filter((name) => name.startsWith("MARGIN_") && !KNOWN.has(name));
}

/** The parsed env's margin settings over core's defaults. */
export function marginRatesFrom(env: Record<string, unknown>): MarginRates {
  const rates = defaultMarginRates();
  const set = (name: string, apply: (value: number) => void) => {
    const value = env[name];
    if (typeof value === "number") apply(value);
  };
  set("MARGIN_MCX_SHARE", (v) => (rates.mcxShare.default = v));
  for (const root of MCX_ROOTS) set(mcxName(root), (v) => (rates.mcxShare[root] = v));
  for (const root of US_ROOTS) set(usName(root), (v) => (rates.usInitialUsd[root] = v));
  return rates;
}
