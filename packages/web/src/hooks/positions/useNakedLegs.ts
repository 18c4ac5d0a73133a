import { useEffect, useRef } from "react";
import { trpc } from "../../trpc.ts";
import type { AlertNotification } from "../alerts/useNotifications.ts";
import { useKiteLink } from "./useKiteLink.ts";

/** How often a tab with Kite linked looks for a campaign left naked. */
const POLL_MS = 3_000;
/** A naked leg settled longer ago than this was told already (Telegram, webhook, History). */
const RECENT_MS = 15 * 60_000;

/**
 * The browser's side of a naked leg (docs/user-guide.md "Live orders"):
 * the server tells Telegram and the webhook; a tab of a trader with Kite linked pops a toast for
 * each campaign of theirs that ended with a leg unhedged in the last minutes, once per tab.
 */
export function useNakedLegs(notify: (notification: Omit<AlertNotification, "id">) => void): void {
  const kite = useKiteLink();
  const list = trpc.executions.list.useQuery(undefined, {
    enabled: kite.data?.linked === true,
    refetchInterval: POLL_MS,
  });
  const told = useRef(new Set<string>());
  useEffect(() => {
    const now = Date.now();
    for (const campaign of list.data ?? []) {
      if (campaign.status !== "naked" || told.current.has(campaign.id)) continue;
      if (now - campaign.updatedAt > RECENT_MS) continue;
      told.current.add(campaign.id);
      notify({
        title: `Naked leg · ${campaign.spread}`,
        crossed: "a leg sent through Kite is unhedged",
        message: `Campaign ${campaign.id} left its first leg without its hedge: act in Kite now.`,
        at: now,
      });
    }
  }, [list.data, notify]);
}
