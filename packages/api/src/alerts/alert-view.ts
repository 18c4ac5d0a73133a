import { ALERT_METRICS } from "@spreadwatch/core";
import type { Alert } from "@spreadwatch/db";
import { z } from "zod";

/**
 * An alert as docs/spec.md §3 spells it. The one stored limit is reported both ways: the panel reads
 * `telegramMaxNotifications`, the modal `maxNotifications` (null meaning 1).
 */
export const alertView = z.object({
  id: z.number(),
  commodityType: z.string(),
  threshold: z.number(),
  direction: z.string(),
  soundId: z.string(),
  enabled: z.boolean(),
  telegramNotify: z.boolean(),
  telegramMaxNotifications: z.number(),
  telegramNotificationCount: z.number(),
  maxNotifications: z.number().nullable(),
  notificationCount: z.number(),
  lastTriggered: z.number().nullable(),
  lastTelegramTriggered: z.number().nullable(),
  metric: z.enum(ALERT_METRICS),
  hysteresis: z.number().nullable(),
  webhookNotify: z.boolean(),
  /** Why the server switched the alert off (its limit), until it is re-enabled. */
  disabledReason: z.string().nullable(),
});

export type AlertView = z.infer<typeof alertView>;

export function toAlertView(alert: Alert): AlertView {
  return {
    id: alert.id,
    commodityType: alert.commodityType,
    threshold: alert.threshold,
    direction: alert.direction,
    soundId: alert.soundId,
    enabled: alert.enabled,
    telegramNotify: alert.telegramNotify,
    telegramMaxNotifications: alert.maxNotifications,
    telegramNotificationCount: alert.serverFiringCount,
    maxNotifications: alert.maxNotifications === 1 ? null : alert.maxNotifications,
    notificationCount: alert.notificationCount,
    lastTriggered: alert.lastTriggered,
    lastTelegramTriggered: alert.lastTelegramTriggered,
    metric: alert.metric,
    hysteresis: alert.hysteresis,
    webhookNotify: alert.webhookNotify,
    disabledReason: alert.disabledReason,
  };
}
