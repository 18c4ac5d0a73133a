// The Backtest panel's form as text fields, and the request they make (docs/backtest.md).
import type { BacktestMetric } from "@spreadwatch/core";

export const PERIOD_DAYS = [7, 30, 90, 365] as const;

export interface RuleForm {
  metric: BacktestMetric;
  sellAbove: string;
  exitShortAt: string;
  buyBelow: string;
  exitLongAt: string;
  targetInr: string;
  stopInr: string;
  maxHoldMinutes: string;
  cooldownMinutes: string;
  lots: string;
  slippageTicks: string;
  periodDays: number;
}

export const EMPTY_RULE: RuleForm = {
  metric: "spread",
  sellAbove: "",
  exitShortAt: "",
  buyBelow: "",
  exitLongAt: "",
  targetInr: "",
  stopInr: "",
  maxHoldMinutes: "",
  cooldownMinutes: "",
  lots: "1",
  slippageTicks: "0",
  periodDays: 30,
};

const NUMBER_FIELDS = [
  "sellAbove",
  "exitShortAt",
  "buyBelow",
  "exitLongAt",
  "targetInr",
  "stopInr",
  "maxHoldMinutes",
  "cooldownMinutes",
  "lots",
  "slippageTicks",
] as const;

/**
 * The request body for `symbol` (GC, SP7) over the last `periodDays` up to `now`; a field left
 * empty is not sent, one that is not a number is sent as text so the server names it.
 */
export function backtestRequest(form: RuleForm, symbol: string, now: number) {
  const to = Math.ceil(now / 60_000) * 60_000 + 60_000;
  const body: Record<string, unknown> = {
    symbol,
    from: to - form.periodDays * 86_400_000,
    to,
    metric: form.metric,
  };
  for (const field of NUMBER_FIELDS) {
    const text = form[field].trim();
    if (text === "") continue;
    const value = Number(text);
    body[field] = Number.isFinite(value) ? value : text;
  }
  return body;
}

/**
 * "How would this alert have done?": the alert's threshold as the entry and the 20-day mean as
 * the exit. A threshold above the mean is a spread that would be sold there, one below bought.
 */
export function ruleFromAlert(
  alert: { metric: string; threshold: number },
  mean: number | undefined,
): Partial<RuleForm> {
  const metric: BacktestMetric =
    alert.metric === "z" || alert.metric === "percentile" ? alert.metric : "spread";
  const centre = metric === "z" ? 0 : metric === "percentile" ? 50 : mean;
  const text = String(alert.threshold);
  if (centre === undefined) return { metric, sellAbove: text };
  const exit = String(Math.round(centre * 100) / 100);
  return alert.threshold >= centre
    ? { metric, sellAbove: text, exitShortAt: exit, periodDays: 30 }
    : { metric, buyBelow: text, exitLongAt: exit, periodDays: 30 };
}
