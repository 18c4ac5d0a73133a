import { trpc } from "../../trpc.ts";

/** The trader's own Kite link and live-order settings (Profile → Connect Kite). */
export function useKiteLink() {
  return trpc.profileKite.get.useQuery(undefined, { refetchOnWindowFocus: true });
}
