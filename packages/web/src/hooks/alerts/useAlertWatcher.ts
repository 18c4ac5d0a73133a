import {
  alertMetricName,
  type Calculations,
  CrossingTracker,
  isAlertMetric,
  type SoundId,
} from "@spreadwatch/core";
import { useEffect, useRef } from "react";
import { pitchFor, playAlertSound } from "../../alerts/sound.ts";
import { type AlertView, crossedMessage, reachedMessage } from "../../alerts/texts.ts";
import {
  type AlertStatistics,
  formatMetricValue,
  metricValue,
} from "../../components/alerts/metric.ts";
import { isAlertable } from "../../market/chartSymbols.ts";
import { definitionEntry } from "../../market/definitionRows.ts";
import { trpc } from "../../trpc.ts";
import { useSymbolLabel } from "../market/useSpreadDefinitions.ts";
import { useAllSpreadStats } from "../market/useSpreadStats.ts";
import { MUTE_KEY, NOTIFY_HIDDEN_KEY, useStoredFlag } from "../ui/useStoredFlag.ts";
import { useAlertTabs } from "./useAlertTabs.ts";
import type { AlertNotification } from "./useNotifications.ts";

interface WatcherInput {
  /** The signed-in user: the tabs of one login share one watcher. */
  userId: number;
  /** The user's alerts; undefined while not loaded (or without the permission). */
  alerts: AlertView[] | undefined;
  calculations: Calculations | undefined;
  notify: (notification: Omit<AlertNotification, "id">) => void;
}

/**
 * The browser side of docs/spec.md §4's trigger rule: every snapshot is run through the core crossing
 * rule for each enabled alert, on the browser's clock. A firing posts the trigger (the server
 * counts it), plays the alert's sound at the pitch of the new side and adds a notification.
 * Disabled and deleted alerts are forgotten, so one that comes back learns its side afresh.
 * The mute switch silences the sound only; with "Notify me when hidden" on (and permission
 * given), a firing while the tab is hidden also shows a system notification.
 *
 * Of several tabs of one login only the leading one (useAlertTabs) acts on a firing; the others
 * keep their crossing state in step (so one can take over at once) and show the leader's toast.
 */
export function useAlertWatcher({ userId, alerts, calculations, notify }: WatcherInput): void {
  // Keyed by alert and metric: a metric change re-learns the side, like a threshold change.
  const tracker = useRef(new CrossingTracker<string>());
  const labelOf = useSymbolLabel();
  const label = useRef(labelOf);
  label.current = labelOf;
  const utils = trpc.useUtils();
  const needsStats = alerts?.some((alert) => alert.enabled && alert.metric !== "spread") ?? false;
  const stats = useAllSpreadStats(needsStats);
  const refresh = () => {
    void utils.alerts.list.invalidate();
    void utils.alerts.history.invalidate();
  };
  const tabs = useAlertTabs(userId, { onFired: notify, onRecorded: refresh });
  const trigger = trpc.alerts.trigger.useMutation({
    onSettled: () => {
      refresh();
      tabs.announce({ kind: "recorded" });
    },
  });
  const triggerRef = useRef(trigger.mutate);
  triggerRef.current = trigger.mutate;
  const [muted] = useStoredFlag(MUTE_KEY);
  const [notifyHidden] = useStoredFlag(NOTIFY_HIDDEN_KEY);
  // Read at firing time without re-running the crossing effect when a switch or the lead flips.
  const live = useRef({ muted, notifyHidden, leading: tabs.leading, announce: tabs.announce });
  live.current = { muted, notifyHidden, leading: tabs.leading, announce: tabs.announce };

  useEffect(() => {
    if (!alerts) return;
    const enabled = alerts.filter((alert) => alert.enabled);
    tracker.current.retain(enabled.map(trackingKey));
    if (!calculations) return;
    const now = Date.now();
    for (const alert of enabled) {
      if (!isAlertable(alert.commodityType)) continue;
      // A built-in's entry and a definition's both carry `spread` (docs/user-guide.md "Spreads of
      // your own").
      const spread = definitionEntry(calculations, alert.commodityType)?.spread;
      if (spread === undefined) continue;
      const metric = isAlertMetric(alert.metric) ? alert.metric : "spread";
      const statistics = (stats as Record<string, unknown> | undefined)?.[alert.commodityType] as
        | AlertStatistics
        | undefined;
      // Without its statistics a z-score or percentile alert waits (the row says so).
      const value = metricValue(metric, spread, statistics);
      if (value === undefined) continue;
      const side = tracker.current.observe(
        { id: trackingKey(alert), threshold: alert.threshold, hysteresis: alert.hysteresis },
        value,
        now,
      );
      // A following tab has seen the crossing too; the leading tab fires it, once.
      if (!side || !live.current.leading) continue;
      // What it fired on goes with the trigger, so the History shows browser firings too.
      triggerRef.current({ id: alert.id, value, metric, direction: side });
      if (!live.current.muted) void playAlertSound(alert.soundId as SoundId, pitchFor(side));
      const title = label.current(alert.commodityType);
      const crossed =
        metric === "spread"
          ? crossedMessage(alert.commodityType, side, alert.threshold, spread)
          : metricCrossedMessage(alert, side, value);
      const notification = {
        title,
        message:
          metric === "spread"
            ? reachedMessage(alert.commodityType, alert.threshold, spread)
            : metricReachedMessage(alert, value),
        crossed,
        at: now,
      };
      notify(notification);
      live.current.announce({ kind: "fired", notification });
      if (live.current.notifyHidden) showSystemNotification(`${title} ${crossed}`, alert.id);
    }
  }, [alerts, calculations, notify, stats]);
}

function trackingKey(alert: AlertView): string {
  return `${alert.id}:${alert.metric}`;
}

/** "Z-score has reached 2.00 (current: 2.31)": docs/spec.md §4's message, naming the metric. */
function metricReachedMessage(alert: AlertView, value: number): string {
  const format = (v: number) => formatMetricValue(alert.metric, alert.commodityType, v);
  return `${alertMetricName(alert.metric)} has reached ${format(alert.threshold)} (current: ${format(value)})`;
}

/** "Z-score crossed above 2.00 ⬆ — now 2.31": the toast's line for a statistical alert. */
function metricCrossedMessage(alert: AlertView, side: "above" | "below", value: number): string {
  const format = (v: number) => formatMetricValue(alert.metric, alert.commodityType, v);
  const arrow = side === "above" ? "⬆" : "⬇";
  return `${alertMetricName(alert.metric)} crossed ${side} ${format(alert.threshold)} ${arrow} — now ${format(value)}`;
}

/** A system notification, only while the tab is hidden: a visible page has its own toasts. */
function showSystemNotification(text: string, alertId: number): void {
  if (typeof Notification === "undefined" || Notification.permission !== "granted") return;
  if (document.visibilityState !== "hidden") return;
  try {
    // One per alert (tag): a fast swing replaces the previous one instead of piling up.
    const shown = new Notification("Spreadwatch alert", { body: text, tag: `alert-${alertId}` });
    shown.onclick = () => {
      window.focus();
      shown.close();
    };
  } catch {
    // Some mobile browsers allow notifications only from a service worker: the toast remains.
  }
}
