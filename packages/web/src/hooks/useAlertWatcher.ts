import {
  type Calculations,
  CrossingTracker,
  isSpreadSymbol,
  type SoundId,
  spreadSymbolLabel,
} from "@spreadwatch/core";
import { useEffect, useRef } from "react";
import { pitchFor, playAlertSound } from "../alerts/sound.ts";
import { type AlertView, reachedMessage } from "../alerts/texts.ts";
import { trpc } from "../trpc.ts";
import type { AlertNotification } from "./useNotifications.ts";

interface WatcherInput {
  /** The user's alerts; undefined while not loaded (or without the permission). */
  alerts: AlertView[] | undefined;
  calculations: Calculations | undefined;
  notify: (notification: Omit<AlertNotification, "id">) => void;
}

/**
 * The browser side of spec §4's trigger rule: every snapshot is run through the core crossing
 * rule for each enabled alert, on the browser's clock. A firing posts the trigger (the server
 * counts it), plays the alert's sound at the pitch of the new side and adds a notification.
 * Disabled and deleted alerts are forgotten, so one that comes back learns its side afresh.
 */
export function useAlertWatcher({ alerts, calculations, notify }: WatcherInput): void {
  const tracker = useRef(new CrossingTracker<number>());
  const utils = trpc.useUtils();
  const trigger = trpc.alerts.trigger.useMutation({
    onSettled: () => utils.alerts.list.invalidate(),
  });
  const triggerRef = useRef(trigger.mutate);
  triggerRef.current = trigger.mutate;

  useEffect(() => {
    if (!alerts) return;
    const enabled = alerts.filter((alert) => alert.enabled);
    tracker.current.retain(enabled.map((alert) => alert.id));
    if (!calculations) return;
    const now = Date.now();
    for (const alert of enabled) {
      if (!isSpreadSymbol(alert.commodityType)) continue;
      const spread = calculations[alert.commodityType]?.spread;
      if (spread === undefined) continue;
      const side = tracker.current.observe(alert, spread, now);
      if (!side) continue;
      triggerRef.current({ id: alert.id });
      void playAlertSound(alert.soundId as SoundId, pitchFor(side));
      notify({
        title: spreadSymbolLabel(alert.commodityType),
        message: reachedMessage(alert.commodityType, alert.threshold, spread),
        at: now,
      });
    }
  }, [alerts, calculations, notify]);
}
