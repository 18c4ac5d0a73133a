import {
  DEFAULT_SOUND_ID,
  freshLevel,
  type LevelState,
  observeLevel,
  type PositionLevelKind,
} from "@spreadwatch/core";
import { useEffect, useRef } from "react";
import { pitchFor, playAlertSound } from "../alerts/sound.ts";
import type { AlertNotification } from "./useNotifications.ts";
import { MUTE_KEY, useStoredFlag } from "./useStoredFlag.ts";

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

const inr = new Intl.NumberFormat("en-IN", { maximumFractionDigits: 2 });
const rupees = (value: number) => `${value < 0 ? "-" : ""}₹${inr.format(Math.abs(value))}`;

/**
 * The browser side of a position's target and stop (README "Targets and stops on positions"):
 * every live mark is run through core's level rule, as the server runs its own (which sends
 * Telegram and the webhook and writes the History); a firing here adds a toast and plays the
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
        const what = kind === "target" ? "reached target" : "fell to stop";
        const title = `${view.side} ${view.lots} × ${view.name ?? view.spread}`;
        const crossed = `net ${rupees(netInr)} ${what} ${rupees(level)}`;
        notify({ title, message: `${title}: ${crossed}`, crossed, at: now });
        if (!mutedRef.current)
          void playAlertSound(DEFAULT_SOUND_ID, pitchFor(kind === "target" ? "above" : "below"));
      }
    }
    for (const key of levels.current.keys()) if (!seen.has(key)) levels.current.delete(key);
  }, [positions, notify]);
}
