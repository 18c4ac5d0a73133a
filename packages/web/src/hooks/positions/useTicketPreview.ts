import { trpc } from "../../trpc.ts";

/** The preview follows the market while the ticket is open, as the Open form's does. */
const TICKET_PREVIEW_REFETCH_MS = 10_000;

/**
 * The order ticket's preview (docs/user-guide.md "Live orders"): each leg's lots and Kite
 * quantity, Kite's margin for the very requests the ticket would send and their round trip's
 * costs, from the server's `executions.preview`. Disabled while the lots or pay-up ticks are not
 * a valid number.
 */
export function useTicketPreview(input: {
  spread: string;
  side: "BUY" | "SELL";
  lots: number | undefined;
  payUpTicks: number | undefined;
}) {
  const { lots, payUpTicks } = input;
  return trpc.executions.preview.useQuery(
    { spread: input.spread, side: input.side, lots: lots ?? 1, payUpTicks: payUpTicks ?? 1 },
    {
      enabled: lots !== undefined && payUpTicks !== undefined,
      refetchInterval: TICKET_PREVIEW_REFETCH_MS,
      retry: false,
    },
  );
}
