import {
  MAX_NOTIFICATION_LIMIT,
  MIN_NOTIFICATION_LIMIT,
  SOUND_IDS,
  SPREAD_SYMBOLS,
} from "@spreadwatch/core";
import type { AlertSettings } from "@spreadwatch/db";
import { z } from "zod";
import { idempotencyKeySchema } from "../idempotency.ts";

const limitMessage = `must be a whole number from ${MIN_NOTIFICATION_LIMIT} to ${MAX_NOTIFICATION_LIMIT}`;
const limit = z
  .number({ error: limitMessage })
  .int(limitMessage)
  .min(MIN_NOTIFICATION_LIMIT, limitMessage)
  .max(MAX_NOTIFICATION_LIMIT, limitMessage);

/** Spec §3/§7's alert fields as the modal and the panel send them. */
const fields = {
  commodityType: z.enum(SPREAD_SYMBOLS as [string, ...string[]], {
    error: `commodityType must be one of ${SPREAD_SYMBOLS.join(", ")}`,
  }),
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
};

export const createAlertInput = z.object({
  commodityType: fields.commodityType,
  threshold: fields.threshold,
  soundId: fields.soundId.default("beep"),
  telegramNotify: fields.telegramNotify.default(false),
  direction: fields.direction.default("reaches"),
  enabled: fields.enabled.default(true),
  maxNotifications: fields.maxNotifications.optional(),
  telegramMaxNotifications: fields.telegramMaxNotifications.optional(),
  idempotencyKey: idempotencyKeySchema,
});

export const updateAlertInput = z.object({
  id: z.number({ error: "id must be a number" }).int().positive(),
  commodityType: fields.commodityType.optional(),
  threshold: fields.threshold.optional(),
  soundId: fields.soundId.optional(),
  telegramNotify: fields.telegramNotify.optional(),
  direction: fields.direction.optional(),
  enabled: fields.enabled.optional(),
  maxNotifications: fields.maxNotifications.optional(),
  telegramMaxNotifications: fields.telegramMaxNotifications.optional(),
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
  return patch;
}
