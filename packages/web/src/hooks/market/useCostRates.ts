import type { CostRates } from "@spreadwatch/core";
import { trpc } from "../../trpc.ts";

/** The server's configured cost rates; they change only with a restart. */
export function useCostRates(): CostRates | undefined {
  return trpc.market.costRates.useQuery(undefined, { staleTime: Number.POSITIVE_INFINITY }).data;
}
