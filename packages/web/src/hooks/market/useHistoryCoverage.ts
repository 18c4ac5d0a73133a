import type { RouterOutputs } from "@spreadwatch/api";
import { trpc } from "../../trpc.ts";

export type InstrumentCoverage = RouterOutputs["history"]["coverage"]["instruments"][number];

/** Every instrument's fetched past (`history.coverage`): every second while a fetch runs. */
export function useHistoryCoverage() {
  return trpc.history.coverage.useQuery(undefined, {
    refetchInterval: (query) =>
      query.state.data?.instruments.some((i) => i.fetching) ? 1_000 : 15_000,
  });
}

/** Admin: fetch the past again (of some keys, or of all); coverage is read again at once. */
export function useFetchHistoryAgain() {
  const utils = trpc.useUtils();
  return trpc.history.fetchAgain.useMutation({
    onSettled: () => utils.history.coverage.invalidate(),
  });
}
