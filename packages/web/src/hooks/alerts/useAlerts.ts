import { ALERT_POLL_MS } from "@spreadwatch/core";
import { useEffect } from "react";
import { httpStatusOf } from "../../session/errors.ts";
import { trpc } from "../../trpc.ts";

/**
 * The signed-in user's alerts, polled every 15 s (docs/spec.md §9) so that what the server changed on
 * its own (a Telegram alert disabled at its limit) shows up; every change made here refetches
 * at once through `useAlertChanges`. One cache feeds the bells, the panel and the watcher.
 */
export function useAlertList(enabled: boolean) {
  const utils = trpc.useUtils();
  const list = trpc.alerts.list.useQuery(undefined, {
    enabled,
    refetchInterval: ALERT_POLL_MS,
    refetchIntervalInBackground: true,
  });
  const forbidden = list.isError && httpStatusOf(list.error) === 403;
  useEffect(() => {
    // An admin took the permission away meanwhile: re-read the user so the alert UI goes away.
    if (forbidden) void utils.auth.status.invalidate();
  }, [forbidden, utils]);
  return list;
}

/** The alert mutations, each refetching the list when it settles. */
export function useAlertChanges() {
  const utils = trpc.useUtils();
  const onSettled = () => utils.alerts.list.invalidate();
  return {
    create: trpc.alerts.create.useMutation({ onSettled }),
    update: trpc.alerts.update.useMutation({ onSettled }),
    remove: trpc.alerts.delete.useMutation({ onSettled }),
    /** Deletes several alerts in one batched request; rejects if any delete failed. */
    async removeAll(ids: number[]): Promise<void> {
      try {
        await Promise.all(ids.map((id) => utils.client.alerts.delete.mutate({ id })));
      } finally {
        await utils.alerts.list.invalidate();
      }
    },
  };
}
