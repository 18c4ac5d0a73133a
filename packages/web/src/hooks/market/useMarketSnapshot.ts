import { PRICE_POLL_MS } from "@spreadwatch/core";
import { useEffect, useRef, useState } from "react";
import { throttle } from "throttle-debounce";
import { applyStreamMessage, type MarketSnapshot } from "../../market/applyDelta.ts";
import { trpc } from "../../trpc.ts";

export type { MarketSnapshot };

/**
 * The shared market cache takes the stream's state at most this often: every row, badge and
 * figure that reads it renders at most four times a second, however fast quotes arrive (the
 * simulator's stream sends ~19 messages a second). The first message after a quiet spell is
 * written at once, the last of a burst within this time; a screen's own selection (the chart's
 * forming candle) still takes every message. docs/architecture.md, "The quote path".
 */
export const MARKET_CACHE_EVERY_MS = 250;

/**
 * What a screen shows, for the stream to send only that (docs/http-api.md, "Live stream"):
 * instruments by key, spread symbols. Absent: everything. `exceptKeys` alone: everything but
 * those instruments (the dashboard's rows off screen), still the whole market to the rest of the
 * app: their last entries stay in it, and so in the shared cache.
 */
export interface MarketSelection {
  keys?: string[];
  symbols?: string[];
  exceptKeys?: string[];
}

export interface MarketSnapshotState {
  snapshot: MarketSnapshot | undefined;
  /** The SSE stream is connected; while it is not, the snapshot is polled. */
  live: boolean;
  /** The stream failed (as opposed to still opening), which the UI owns up to. */
  interrupted: boolean;
  /** Neither the stream nor polling gets through: the server is down or out of reach. */
  unreachable: boolean;
}

/**
 * Latest prices and spreads. The live stream writes into the `market.snapshot` query's cache, so
 * there is one copy of the data whichever way it arrived; polling that same query every 2 s
 * takes over only while the stream is down. The stream sends a snapshot on each connection, then
 * deltas: they are folded into the stream's own copy, never into the cache, so a poll answer
 * that lands late (older than the stream's snapshot) cannot leave stale rows behind — the next
 * message writes the whole stream state over it.
 */
export function useMarketSnapshot(selection?: MarketSelection): MarketSnapshotState {
  const utils = trpc.useUtils();
  const streamState = useRef<MarketSnapshot | undefined>(undefined);
  // A selection's state holds only what was asked for: it stays this screen's own, never the
  // shared cache another screen (the dashboard) would read as the whole market.
  const [selected, setSelected] = useState<MarketSnapshot | undefined>(undefined);
  const partOnly = selection !== undefined && selection.exceptKeys === undefined;
  // Which selection the stream last delivered for: set by the connection itself, as the status
  // a render reads right after a new selection is still the previous connection's.
  const selectionId = JSON.stringify(selection ?? null);
  const liveFor = useRef<string | undefined>(undefined);
  const [writeCache] = useState(() =>
    throttle(MARKET_CACHE_EVERY_MS, () => {
      if (streamState.current) utils.market.snapshot.setData(undefined, streamState.current);
    }),
  );
  // Nothing is written into the cache after the screen has gone; `upcomingOnly` keeps the writer
  // usable should the same component mount again (React's strict mode runs effects twice).
  useEffect(() => () => writeCache.cancel({ upcomingOnly: true }), [writeCache]);
  const stream = trpc.market.onSnapshot.useSubscription(selection, {
    onStarted: () => {
      liveFor.current = selectionId;
    },
    onData: (message) => {
      liveFor.current = selectionId;
      streamState.current = applyStreamMessage(streamState.current, message, selection?.exceptKeys);
      if (!streamState.current) return;
      if (partOnly) setSelected(streamState.current);
      else writeCache();
    },
  });
  // A new `exceptKeys` opens a new connection; a dashboard that was live stays live while that
  // one opens (no "Connecting…" as it scrolls). Only then: a dropped or failed connection is not.
  if (stream.status === "error" || stream.error !== null) liveFor.current = undefined;
  const switching =
    !partOnly &&
    stream.status === "connecting" &&
    liveFor.current !== undefined &&
    liveFor.current !== selectionId;
  const live = stream.status === "pending" || switching;
  const query = trpc.market.snapshot.useQuery(undefined, {
    refetchInterval: live ? false : PRICE_POLL_MS,
    refetchIntervalInBackground: true,
    // A live stream keeps the cache current; a focus refetch would only add a request.
    refetchOnWindowFocus: !live,
  });
  const interrupted = !live && (stream.status === "error" || stream.error !== null);
  // A poll that failed (even one still being retried) while the stream is not connected: there
  // is no way to the server right now. The error state holds until a poll or the stream succeeds.
  const unreachable = !live && (query.isError || query.failureCount > 0);
  const snapshot = partOnly && live && selected ? selected : query.data;
  return { snapshot, live, interrupted, unreachable };
}
