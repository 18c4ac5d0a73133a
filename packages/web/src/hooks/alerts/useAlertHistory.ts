import type { RouterOutputs } from "@spreadwatch/api";
import { ALERT_POLL_MS } from "@spreadwatch/core";
import { useCallback, useMemo, useState } from "react";
import { failureText } from "../../session/errors.ts";
import { trpc } from "../../trpc.ts";

export type HistoryEntry = RouterOutputs["alerts"]["history"]["entries"][number];

/** Entries per page: a phone screen or two. */
export const HISTORY_PAGE = 20;

/**
 * The alerts' History, newest first: the first page polled like the alert list (new firings
 * appear), older pages fetched on demand with the `before` cursor and kept below it.
 */
export function useAlertHistory() {
  const utils = trpc.useUtils();
  const first = trpc.alerts.history.useQuery(
    { limit: HISTORY_PAGE },
    { refetchInterval: ALERT_POLL_MS },
  );
  const [older, setOlder] = useState<HistoryEntry[]>([]);
  const [olderDone, setOlderDone] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [olderError, setOlderError] = useState<string>();

  const entries = useMemo(() => {
    const seen = new Set<number>();
    const all: HistoryEntry[] = [];
    for (const entry of [...(first.data?.entries ?? []), ...older]) {
      if (seen.has(entry.id)) continue;
      seen.add(entry.id);
      all.push(entry);
    }
    return all;
  }, [first.data, older]);

  const firstFull = (first.data?.entries.length ?? 0) >= HISTORY_PAGE;
  // A first "Load older" that finds nothing is the end too (a history of exactly one page).
  const hasOlder = !olderDone && (older.length > 0 || firstFull);

  const loadOlder = useCallback(async () => {
    const last = entries.at(-1);
    if (!last) return;
    setLoadingOlder(true);
    setOlderError(undefined);
    try {
      const page = await utils.client.alerts.history.query({
        limit: HISTORY_PAGE,
        before: last.firedAt,
      });
      setOlder((current) => [...current, ...page.entries]);
      setOlderDone(page.entries.length < HISTORY_PAGE);
    } catch (error) {
      setOlderError(failureText(error, { fallback: "Failed to load older entries." }));
    } finally {
      setLoadingOlder(false);
    }
  }, [entries, utils]);

  return { first, entries, hasOlder, loadOlder, loadingOlder, olderError };
}
