import type { Alert } from "@spreadwatch/db";

/**
 * An alert as spec §3 spells it. The one stored limit is reported both ways: the panel reads
 * `telegramMaxNotifications`, the modal `maxNotifications` (null meaning 1).
 */
export function toAlertView(alert: Alert) {
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
    /** Why the server switched the alert off (its limit), until it is re-enabled. */
    disabledReason: alert.disabledReason,
  };
}

export type AlertView = ReturnType<typeof toAlertView>;
