import {
  ALERT_METRIC_RANGES,
  ALERT_METRICS,
  type AlertMetric,
  MAX_NOTIFICATION_LIMIT,
  MIN_NOTIFICATION_LIMIT,
  SOUND_IDS,
  SPREAD_SYMBOLS,
} from "@spreadwatch/core";
import type { AlertSettings } from "@spreadwatch/db";
import { z } from "zod";
import { idempotencyKeySchema } from "../idempotency.ts";
import { recordId } from "../shared-schemas.ts";
import type { SpreadRegistry, SpreadViewer } from "../spreads/registry.ts";

const limitMessage = `must be a whole number from ${MIN_NOTIFICATION_LIMIT} to ${MAX_NOTIFICATION_LIMIT}`;
const limit = z
  .number({ error: limitMessage })
  .int(limitMessage)
  .min(MIN_NOTIFICATION_LIMIT, limitMessage)
  .max(MAX_NOTIFICATION_LIMIT, limitMessage);

const METRIC_SENTENCE = `metric must be one of ${ALERT_METRICS.join(", ")}`;

const finite = (name: string) =>
  z
    .number({ error: `${name} must be a number` })
    .refine(Number.isFinite, `${name} must be a finite number`);

/**
 * Why `threshold` and `hysteresis` do not fit `metric`, or undefined when they do. Checked on
 * the alert as it will be stored, so an update that changes only the metric is checked too.
 */
export function metricMismatch(
  metric: AlertMetric,
  threshold: number,
  hysteresis: number | null,
): string | undefined {
  const range = ALERT_METRIC_RANGES[metric];
  if (threshold < range.min || threshold > range.max)
    return `threshold for a ${metric} alert must be from ${range.min} to ${range.max}`;
  if (hysteresis !== null && hysteresis > range.hysteresis)
    return `hysteresis for a ${metric} alert must be at most ${range.hysteresis}`;
  return undefined;
}

const SYMBOL_SENTENCE = `commodityType must be one of ${SPREAD_SYMBOLS.join(", ")}, or the BUY or SELL symbol of a spread you can see (SP7_BUY)`;

/** An executable symbol's shape: GC_BUY, SP7_SELL. Whether it exists for the user is asked after. */
const EXECUTABLE_SYMBOL = /^[A-Z][A-Z0-9]{0,15}_(BUY|SELL)$/;

/**
 * Why `symbol` cannot take `viewer`'s alert, or undefined when it can: it must be the BUY or
 * SELL symbol of a definition they can see (a built-in, a shared one or their own). Another
 * user's private definition gets the very sentence an unknown symbol gets, so an answer never
 * tells that it exists (docs/formulas.md).
 */
export function alertSymbolProblem(
  spreads: Pick<SpreadRegistry, "executable" | "canSee">,
  viewer: SpreadViewer,
  symbol: string,
): string | undefined {
  const known = spreads.executable(symbol) !== undefined && spreads.canSee(viewer, symbol);
  return known ? undefined : SYMBOL_SENTENCE;
}

/** docs/spec.md §3/§7's alert fields as the modal and the panel send them. */
const fields = {
  commodityType: z
    .string({ error: SYMBOL_SENTENCE })
    .regex(EXECUTABLE_SYMBOL, { error: SYMBOL_SENTENCE }),
  threshold: z
    .number({ error: "threshold must be a number" })
    .refine(Number.isFinite, "threshold must be a finite number"),
  soundId: z.enum(SOUND_IDS, { error: `soundId must be one of ${SOUND_IDS.join(", ")}` }),
  telegramNotify: z.boolean({ error: "telegramNotify must be true or false" }),
  direction: z.literal("reaches", { error: 'direction must be "reaches"' }),
  enabled: z.boolean({ error: "enabled must be true or false" }),
  /** The modal's field: null means 1. */
  maxNotifications: limit.nullable(),
  /** The panel's field. */
  telegramMaxNotifications: limit,
  metric: z.enum(ALERT_METRICS, { error: METRIC_SENTENCE }),
  /** Re-arm distance after a firing, in the metric's units; null: none. */
  hysteresis: finite("hysteresis")
    .pipe(z.number().min(0, "hysteresis must be 0 or more"))
    .nullable(),
  webhookNotify: z.boolean({ error: "webhookNotify must be true or false" }),
};

export const createAlertInput = z
  .strictObject({
    commodityType: fields.commodityType,
    threshold: fields.threshold,
    soundId: fields.soundId.default("beep"),
    telegramNotify: fields.telegramNotify.default(false),
    direction: fields.direction.default("reaches"),
    enabled: fields.enabled.default(true),
    maxNotifications: fields.maxNotifications.optional(),
    telegramMaxNotifications: fields.telegramMaxNotifications.optional(),
    metric: fields.metric.default("spread"),
    hysteresis: fields.hysteresis.default(null),
    webhookNotify: fields.webhookNotify.default(false),
    idempotencyKey: idempotencyKeySchema,
  })
  .superRefine((input, ctx) => {
    const why = metricMismatch(input.metric, input.threshold, input.hysteresis);
    if (why) ctx.addIssue({ code: "custom", message: why, path: ["threshold"] });
  });

export const updateAlertInput = z.strictObject({
  id: recordId,
  commodityType: fields.commodityType.optional(),
  threshold: fields.threshold.optional(),
  soundId: fields.soundId.optional(),
  telegramNotify: fields.telegramNotify.optional(),
  direction: fields.direction.optional(),
  enabled: fields.enabled.optional(),
  maxNotifications: fields.maxNotifications.optional(),
  telegramMaxNotifications: fields.telegramMaxNotifications.optional(),
  metric: fields.metric.optional(),
  hysteresis: fields.hysteresis.optional(),
  webhookNotify: fields.webhookNotify.optional(),
});

/**
 * What a browser fired on (all three, or none for the spec's bare trigger): stored as a
 * "browser" History entry. A value is bounded so junk cannot fill the History.
 */
export const triggerAlertInput = z
  .strictObject({
    id: recordId,
    value: finite("value")
      .pipe(z.number().min(-1e9, "value is out of range").max(1e9, "value is out of range"))
      .optional(),
    metric: fields.metric.optional(),
    direction: z
      .enum(["above", "below"], { error: 'direction must be "above" or "below"' })
      .optional(),
  })
  .superRefine((input, ctx) => {
    const given = [input.value, input.metric, input.direction].filter((v) => v !== undefined);
    if (given.length !== 0 && given.length !== 3)
      ctx.addIssue({
        code: "custom",
        message: "value, metric and direction go together: send all three or none",
      });
  });

type LimitFields = {
  maxNotifications?: number | null | undefined;
  telegramMaxNotifications?: number | undefined;
};

/** The panel's explicit limit wins over the modal's; the modal's null means 1. */
function storedLimit(input: LimitFields): number | undefined {
  if (input.telegramMaxNotifications !== undefined) return input.telegramMaxNotifications;
  if (input.maxNotifications !== undefined) return input.maxNotifications ?? 1;
  return undefined;
}

export function toNewAlert(input: z.infer<typeof createAlertInput>): AlertSettings {
  return {
    commodityType: input.commodityType,
    threshold: input.threshold,
    soundId: input.soundId,
    telegramNotify: input.telegramNotify,
    enabled: input.enabled,
    maxNotifications: storedLimit(input) ?? 1,
    metric: input.metric,
    hysteresis: input.hysteresis,
    webhookNotify: input.webhookNotify,
  };
}

export function toAlertPatch(input: z.infer<typeof updateAlertInput>): Partial<AlertSettings> {
  const patch: Partial<AlertSettings> = {};
  if (input.commodityType !== undefined) patch.commodityType = input.commodityType;
  if (input.threshold !== undefined) patch.threshold = input.threshold;
  if (input.soundId !== undefined) patch.soundId = input.soundId;
  if (input.telegramNotify !== undefined) patch.telegramNotify = input.telegramNotify;
  if (input.enabled !== undefined) patch.enabled = input.enabled;
  const limit = storedLimit(input);
  if (limit !== undefined) patch.maxNotifications = limit;
  if (input.metric !== undefined) patch.metric = input.metric;
  if (input.hysteresis !== undefined) patch.hysteresis = input.hysteresis;
  if (input.webhookNotify !== undefined) patch.webhookNotify = input.webhookNotify;
  return patch;
}

/** A query parameter's text as a number; an empty or non-numeric text fails (NaN). */
function fromText(value: unknown): unknown {
  if (typeof value !== "string") return value;
  return value.trim() === "" ? Number.NaN : Number(value);
}

const LIMIT_SENTENCE = "limit must be a whole number from 1 to 200";
const BEFORE_SENTENCE = "before must be a time in epoch milliseconds";

/** `GET /api/alerts/history?limit&before`: query text read as numbers, so REST and tRPC agree. */
export const historyInput = z
  .strictObject({
    limit: z
      .preprocess(
        fromText,
        z
          .number({ error: LIMIT_SENTENCE })
          .int(LIMIT_SENTENCE)
          .min(1, LIMIT_SENTENCE)
          .max(200, LIMIT_SENTENCE),
      )
      .optional()
      .transform((limit) => limit ?? 50),
    before: z
      .preprocess(
        fromText,
        z
          .number({ error: BEFORE_SENTENCE })
          .int(BEFORE_SENTENCE)
          .min(0, BEFORE_SENTENCE)
          .max(8.64e15, BEFORE_SENTENCE),
      )
      .optional(),
  })
  .default({ limit: 50 });
