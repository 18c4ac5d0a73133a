import { trpc } from "../../trpc.ts";

/** A live-order campaign, re-read every second while it is open (docs/user-guide.md "Live orders"). */
export function useExecution(id: string | undefined) {
  return trpc.executions.get.useQuery(
    { id: id ?? "" },
    {
      enabled: id !== undefined,
      refetchInterval: (query) =>
        query.state.data && !["working", "hedging"].includes(query.state.data.status)
          ? false
          : 1_000,
    },
  );
}
