import { CME_CONTRACT_KEYS, type CostRates, defaultCostRates } from "@spreadwatch/core";
import { z } from "zod";

/**
 * The round-trip cost rates of `perLot` (docs/operations.md, "Configuration") as env settings: one
 * variable per rate, since a desk changes one (its brokerage, its CME commission) and keeps the
 * rest. Unset means core's `defaultCostRates()`, whose doc comment says where each default comes
 * from.
 */
const rupees = z.coerce
  .number({ error: "must be an amount ≥ 0 in ₹" })
  .min(0, "must be an amount ≥ 0 in ₹");
const dollars = z.coerce
  .number({ error: "must be an amount ≥ 0 in USD per contract per side" })
  .min(0, "must be an amount ≥ 0 in USD per contract per side");
const rate = z.coerce
  .number({ error: "must be a fraction such as 0.0001 for 0.01 %" })
  .min(0, "must be a fraction from 0 to 1 (0.0001 = 0.01 %)")
  .max(1, "must be a fraction from 0 to 1 (0.0001 = 0.01 %)");

const cmeName = (key: string) => `COST_CME_${key}_USD`;

export const costEnvShape = {
  COST_MCX_BROKERAGE_INR: rupees.optional(),
  COST_CTT_RATE: rate.optional(),
  COST_MCX_EXCHANGE_PER_CRORE: rupees.optional(),
  COST_SEBI_PER_CRORE: rupees.optional(),
  COST_STAMP_RATE: rate.optional(),
  COST_GST_RATE: rate.optional(),
  COST_STT_RATE: rate.optional(),
  COST_NFO_EXCHANGE_PER_CRORE: rupees.optional(),
  COST_CDS_EXCHANGE_PER_CRORE: rupees.optional(),
  COST_CDS_STAMP_RATE: rate.optional(),
  ...Object.fromEntries(CME_CONTRACT_KEYS.map((key) => [cmeName(key), dollars.optional()])),
};

/** The parsed env's cost settings over core's defaults. */
export function costRatesFrom(env: Record<string, unknown>): CostRates {
  const rates = defaultCostRates();
  const set = (name: string, apply: (value: number) => void) => {
    const value = env[name];
    if (typeof value === "number") apply(value);
  };
  set("COST_MCX_BROKERAGE_INR", (v) => (rates.mcxBrokeragePerOrder = v));
  set("COST_CTT_RATE", (v) => (rates.cttSellRate = v));
  set("COST_MCX_EXCHANGE_PER_CRORE", (v) => (rates.mcxExchangePerCrore = v));
  set("COST_SEBI_PER_CRORE", (v) => (rates.sebiPerCrore = v));
  set("COST_STAMP_RATE", (v) => (rates.stampDutyBuyRate = v));
  set("COST_GST_RATE", (v) => (rates.gstRate = v));
  set("COST_STT_RATE", (v) => (rates.sttFuturesSellRate = v));
  set("COST_NFO_EXCHANGE_PER_CRORE", (v) => (rates.nfoExchangePerCrore = v));
  set("COST_CDS_EXCHANGE_PER_CRORE", (v) => (rates.cdsExchangePerCrore = v));
  set("COST_CDS_STAMP_RATE", (v) => (rates.cdsStampDutyBuyRate = v));
  for (const key of CME_CONTRACT_KEYS)
    set(cmeName(key), (v) => (rates.cmePerContractPerSideUsd[key] = v));
  return rates;
}
