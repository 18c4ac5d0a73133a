import {
  DEFAULT_SOUND_ID,
  freshLevel,
  type LevelState,
  levelCrossedText,
  observeLevel,
  type PositionLevelKind,
  userSpreadId,
} from "@spreadwatch/core";
import { useEffect, useMemo, useRef } from "react";
import { pitchFor, playAlertSound } from "../../alerts/sound.ts";
import type { MarketSnapshot } from "../../market/applyDelta.ts";
import { providersByKey } from "../../market/feedHealth.ts";
import type { AlertNotification } from "../alerts/useNotifications.ts";
import type { FeedHealthQuery } from "../market/useFeedHealth.ts";
import { useNow } from "../ui/useNow.ts";
import { MUTE_KEY, useStoredFlag } from "../ui/useStoredFlag.ts";
import { useLivePositions, useOpenPositions } from "./usePositions.ts";

/** What the popup needs of a position marked live in this browser (usePositions' LivePosition fits). */
export interface LivePositionLevels {
  view: {
    id: number;
    side: "BUY" | "SELL";
    lots: number;
    entry: number;
    /** The spread's symbol (GC, SP7) and, for a definition, its name. */
    spread: string;
    name?: string | undefined;
    targetInr: number | null;
    stopInr: number | null;
  };
  netInr: number | null;
  /** Stale, crossed or missing legs: held, as the server holds it. */
  stale: boolean;
}

/**
 * The browser side of a position's target and stop (docs/user-guide.md "Targets and stops on
 * positions"): every live mark is run through core's level rule, as the server runs its own (which
 * sends Telegram and the webhook and writes the History); a firing here adds a toast and plays the
 * alert sound (unless muted). A value on stale legs is not observed, so the crossing fires on
 * fresh prices. A level whose position, lots or entry changed learns where net stands afresh.
 */
export function usePositionAlerts(
  positions: readonly LivePositionLevels[],
  notify: (notification: Omit<AlertNotification, "id">) => void,
): void {
  const levels = useRef(new Map<string, LevelState>());
  const [muted] = useStoredFlag(MUTE_KEY);
  const mutedRef = useRef(muted);
  mutedRef.current = muted;

  useEffect(() => {
    const seen = new Set<string>();
    const now = Date.now();
    for (const { view, netInr, stale } of positions) {
      for (const [kind, level] of [
        ["target", view.targetInr],
        ["stop", view.stopInr],
      ] as const) {
        if (level === null) continue;
        const key = `${view.id}:${kind}:${level}:${view.lots}:${view.entry}`;
        seen.add(key);
        let state = levels.current.get(key);
        if (!state) {
          state = freshLevel();
          levels.current.set(key, state);
        }
        if (stale || netInr === null) continue;
        if (!observeLevel(state, kind as PositionLevelKind, level, netInr)) continue;
        // Named as the server's Telegram line names it: a definition by its name, a built-in by
        // its symbol ("SELL 1 × GC").
        const name =
          userSpreadId(view.spread) !== undefined ? (view.name ?? view.spread) : view.spread;
        const title = `${view.side} ${view.lots} × ${name}`;
        const crossed = levelCrossedText(kind, netInr, level);
        notify({ title, message: `${title}: ${crossed}`, crossed, at: now });
        if (!mutedRef.current)
          void playAlertSound(DEFAULT_SOUND_ID, pitchFor(kind === "target" ? "above" : "below"));
      }
    }
    for (const key of levels.current.keys()) if (!seen.has(key)) levels.current.delete(key);
  }, [positions, notify]);
}

/**
 * The dashboard's side of position alerts: the user's open positions marked live exactly as the
 * Positions screen marks them (useLivePositions: greyed and held on a stale, crossed or missing
 * leg, or a leg whose feed rolled past the contract held), run through usePositionAlerts into
 * the dashboard's toasts.
 */
export function useDashboardPositionAlerts(
  snapshot: MarketSnapshot | undefined,
  health: FeedHealthQuery,
  notify: (notification: Omit<AlertNotification, "id">) => void,
): void {
  // No positions.onChange subscription here: a second stream per dashboard tab would count
  // against the per-address stream limit. The list is read on mount and every 30 s.
  const { positions } = useOpenPositions();
  const now = useNow();
  const freshness = useMemo(
    () => ({ now, providers: providersByKey(health.data?.providers) }),
    [now, health.data],
  );
  usePositionAlerts(useLivePositions(positions, snapshot, freshness), notify);
}
