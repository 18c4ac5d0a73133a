import {
  DEFAULT_SOUND_ID,
  freshLevel,
  isSpreadSymbol,
  type LevelState,
  markPosition,
  observeLevel,
  type PositionLevelKind,
} from "@spreadwatch/core";
import { useEffect, useMemo, useRef } from "react";
import { pitchFor, playAlertSound } from "../alerts/sound.ts";
import type { MarketSnapshot } from "../market/applyDelta.ts";
import { definitionEntry, definitionInputs } from "../market/definitionRows.ts";
import { providersByKey } from "../market/feedHealth.ts";
import { type SpreadInput, spreadInputs } from "../market/inputMarks.ts";
import { legProblems } from "../market/legProblems.ts";
import { trpc } from "../trpc.ts";
import type { FeedHealthQuery } from "./useFeedHealth.ts";
import type { AlertNotification } from "./useNotifications.ts";
import { useNow } from "./useNow.ts";
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

/** A user definition's symbol (SP7); the built-ins are GC, SI, …. */
const DEFINITION_SYMBOL = /^SP\d+$/;

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
        // Named as the server's Telegram line names it: a definition by its name, a built-in by
        // its symbol ("SELL 1 × GC").
        const name = DEFINITION_SYMBOL.test(view.spread) ? (view.name ?? view.spread) : view.spread;
        const title = `${view.side} ${view.lots} × ${name}`;
        const crossed = `net ${rupees(netInr)} ${what} ${rupees(level)}`;
        notify({ title, message: `${title}: ${crossed}`, crossed, at: now });
        if (!mutedRef.current)
          void playAlertSound(DEFAULT_SOUND_ID, pitchFor(kind === "target" ? "above" : "below"));
      }
    }
    for (const key of levels.current.keys()) if (!seen.has(key)) levels.current.delete(key);
  }, [positions, notify]);
}

/** The positions list is refetched this often (margins, costs); the marks are live. */
const POSITIONS_REFETCH_MS = 30_000;

/**
 * The dashboard's side of position alerts: the user's open positions (`positions.list`), each marked at its exit from the stream's calculations with core's
 * markPosition and greyed as its spread row is (a stale, crossed or missing leg holds it), run
 * through usePositionAlerts into the dashboard's toasts.
 */
export function useDashboardPositionAlerts(
  snapshot: MarketSnapshot | undefined,
  health: FeedHealthQuery,
  notify: (notification: Omit<AlertNotification, "id">) => void,
): void {
  // No positions.onChange subscription here: a second stream per dashboard tab would count
  // against the per-address stream limit. The list is read on mount and every 30 s.
  const list = trpc.positions.list.useQuery(undefined, { refetchInterval: POSITIONS_REFETCH_MS });
  const now = useNow();
  const providers = useMemo(() => providersByKey(health.data?.providers), [health.data]);
  const live = useMemo(() => {
    const views = list.data?.positions ?? [];
    if (!snapshot) return [];
    const freshness = { now, providers };
    const calculations = snapshot.calculations as unknown as Record<string, unknown>;
    return views.map((view): LivePositionLevels => {
      const symbol = view.markSymbol;
      let mark: number | undefined;
      let inputs: SpreadInput[];
      if (isSpreadSymbol(symbol)) {
        const entry = calculations[symbol] as { spread?: unknown } | undefined;
        mark = typeof entry?.spread === "number" ? entry.spread : undefined;
        inputs = spreadInputs(symbol, snapshot.prices);
      } else {
        const entry = definitionEntry(snapshot.calculations, symbol);
        mark = entry?.spread;
        const legs = Object.entries(view.legs).map(([name, leg]) => ({
          name,
          instrument: leg.instrument,
        }));
        inputs = definitionInputs(legs, entry, snapshot.prices);
      }
      const figures = markPosition(view, {
        mark,
        costsPerLotInr:
          view.costsInr !== null && view.lots > 0 ? view.costsInr / view.lots : undefined,
        now,
      });
      const stale = mark === undefined || legProblems(inputs, freshness).length > 0;
      return { view, netInr: figures.netInr, stale };
    });
  }, [list.data, snapshot, now, providers]);
  usePositionAlerts(live, notify);
}
