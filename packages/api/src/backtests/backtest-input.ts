// What POST /api/backtests and /api/backtests/sweep accept (docs/backtest.md). Unknown fields,
// a rule with no entry, thresholds on the wrong side and ranges too long are refused with the
// field named, before anything is read.
import {
  axisLength,
  BACKTEST_METRICS,
  RULE_FIELDS,
  ruleProblem,
  STATS_DAYS,
} from "@spreadwatch/core";
import { z } from "zod";

/** One year and a day: a leap year's one-minute candles, the most one backtest reads. */
export const MAX_BACKTEST_DAYS = 366;
export const MAX_SWEEP_CELLS = 400;
const DAY_MS = 86_400_000;
const MAX_MAGNITUDE = 1e12;

const epochMs = (field: string) =>
  z
    .number({ error: `${field} must be epoch milliseconds` })
    .int(`${field} must be epoch milliseconds`)
    .min(0, `${field} must be epoch milliseconds`);

const threshold = (field: string) =>
  z
    .number({ error: `${field} must be a finite number` })
    .min(-MAX_MAGNITUDE, `${field} must be between -1e12 and 1e12`)
    .max(MAX_MAGNITUDE, `${field} must be between -1e12 and 1e12`)
    .optional();

const positiveInr = (field: string) =>
  z
    .number({ error: `${field} must be a number of rupees above 0` })
    .positive(`${field} must be a number of rupees above 0`)
    .max(MAX_MAGNITUDE, `${field} must be at most 1e12`)
    .optional();

const minutes = (field: string, min: number) =>
  z
    .number({ error: `${field} must be a whole number of minutes` })
    .int(`${field} must be a whole number of minutes`)
    .min(min, `${field} must be a whole number of minutes from ${min}`)
    .max(MAX_BACKTEST_DAYS * 1440, `${field} must be at most ${MAX_BACKTEST_DAYS * 1440}`)
    .optional();

const ruleShape = {
  symbol: z
    .string({ error: "symbol must be a spread's symbol, e.g. GC or SP7" })
    .trim()
    .min(1, "symbol must be a spread's symbol, e.g. GC or SP7")
    .max(40, "symbol must be a spread's symbol, e.g. GC or SP7"),
  from: epochMs("from"),
  to: epochMs("to"),
  metric: z.enum(BACKTEST_METRICS, {
    error: `metric must be one of ${BACKTEST_METRICS.join(", ")}`,
  }),
  sellAbove: threshold("sellAbove"),
  buyBelow: threshold("buyBelow"),
  exitShortAt: threshold("exitShortAt"),
  exitLongAt: threshold("exitLongAt"),
  targetInr: positiveInr("targetInr"),
  stopInr: positiveInr("stopInr"),
  maxHoldMinutes: minutes("maxHoldMinutes", 1),
  cooldownMinutes: minutes("cooldownMinutes", 0),
  lots: z
    .number({ error: "lots must be a whole number from 1 to 10,000" })
    .int("lots must be a whole number from 1 to 10,000")
    .min(1, "lots must be a whole number from 1 to 10,000")
    .max(10_000, "lots must be a whole number from 1 to 10,000")
    .default(1),
  slippageTicks: z
    .number({ error: "slippageTicks must be a number of ticks from 0 to 100" })
    .min(0, "slippageTicks must be a number of ticks from 0 to 100")
    .max(100, "slippageTicks must be a number of ticks from 0 to 100")
    .default(0),
  /** The z and percentile window, days (the live statistics' choices). */
  days: z
    .union(
      STATS_DAYS.map((d) => z.literal(d)),
      { error: `days must be one of ${STATS_DAYS.join(", ")}` },
    )
    .default(20),
};

interface RangeAndRule {
  from: number;
  to: number;
  metric: (typeof BACKTEST_METRICS)[number];
  sellAbove?: number | undefined;
  buyBelow?: number | undefined;
  exitShortAt?: number | undefined;
  exitLongAt?: number | undefined;
  lots: number;
}

/** The checks across fields: the range, then the rule's sides. */
function checkRangeAndRule(value: RangeAndRule, ctx: z.RefinementCtx, checkRule = true): void {
  if (value.from >= value.to) {
    ctx.addIssue({ code: "custom", message: "from must be before to", path: ["from"] });
    return;
  }
  if (value.to - value.from > MAX_BACKTEST_DAYS * DAY_MS) {
    ctx.addIssue({
      code: "custom",
      message: `to: a backtest covers at most ${MAX_BACKTEST_DAYS} days of one-minute data`,
      path: ["to"],
    });
    return;
  }
  const problem = checkRule ? ruleProblem(value) : undefined;
  if (problem) ctx.addIssue({ code: "custom", message: problem[1], path: [problem[0]] });
}

export const backtestInput = z
  .strictObject(ruleShape)
  .superRefine((value, ctx) => checkRangeAndRule(value, ctx));

const axis = (name: "x" | "y") =>
  z.strictObject({
    field: z.enum(RULE_FIELDS, {
      error: `sweep.${name}.field must be one of ${RULE_FIELDS.join(", ")}`,
    }),
    from: z.number({ error: `sweep.${name}.from must be a finite number` }),
    to: z.number({ error: `sweep.${name}.to must be a finite number` }),
    step: z
      .number({ error: `sweep.${name}.step must be a number above 0` })
      .positive(`sweep.${name}.step must be a number above 0`),
  });

export const sweepInput = z
  .strictObject({
    ...ruleShape,
    sweep: z
      .strictObject({ x: axis("x"), y: axis("y") })
      .refine(({ x, y }) => x.field !== y.field, {
        message: "sweep.y.field must differ from sweep.x.field",
        path: ["y", "field"],
      }),
  })
  .superRefine((value, ctx) => {
    // The swept fields are the cells' to set: the rest of the rule is checked per cell.
    checkRangeAndRule(value, ctx, false);
    const { x, y } = value.sweep;
    for (const [name, a] of [
      ["x", x],
      ["y", y],
    ] as const) {
      if (a.to < a.from)
        ctx.addIssue({
          code: "custom",
          message: `sweep.${name}.to must not be below sweep.${name}.from`,
          path: ["sweep", name, "to"],
        });
    }
    const swept = new Set<string>([x.field, y.field]);
    if (
      value.sellAbove === undefined &&
      value.buyBelow === undefined &&
      !swept.has("sellAbove") &&
      !swept.has("buyBelow")
    )
      ctx.addIssue({
        code: "custom",
        message: "sellAbove or buyBelow is required: a rule needs an entry",
        path: ["sellAbove"],
      });
    const cells = axisLength(x) * axisLength(y);
    if (cells > MAX_SWEEP_CELLS)
      ctx.addIssue({
        code: "custom",
        message: `sweep: ${cells} cells; a sweep has at most ${MAX_SWEEP_CELLS}`,
        path: ["sweep"],
      });
  });

/**
 * POST /api/backtests/history: the minutes and per-lot figures a run reads, for a browser or a
 * script that runs core's backtestSpread itself (the sweep's Web Worker).
 */
export const historyInput = z
  .strictObject({
    symbol: ruleShape.symbol,
    from: ruleShape.from,
    to: ruleShape.to,
    days: ruleShape.days,
  })
  .superRefine((value, ctx) =>
    checkRangeAndRule({ ...value, metric: "spread", lots: 1 }, ctx, false),
  );

export type BacktestInput = z.infer<typeof backtestInput>;
export type SweepInput = z.infer<typeof sweepInput>;
