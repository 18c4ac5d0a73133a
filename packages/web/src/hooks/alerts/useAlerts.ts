import { ALERT_POLL_MS } from "@spreadwatch/core";
import { useEffect } from "react";
import type { AlertView } from "../../alerts/texts.ts";
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

/**
 * The alert mutations. Each writes the server's answer into the list at once, so a form closes
 * on the server's answer: the refetch that follows rides in a batch with whatever else the
 * screen asks for, and may take as long as the slowest of those. It is not waited for.
 */
export function useAlertChanges() {
  const utils = trpc.useUtils();
  const edit = (change: (alerts: AlertView[]) => AlertView[]) =>
    utils.alerts.list.setData(
      undefined,
      (list) => list && { ...list, alerts: change(list.alerts) },
    );
  const onSettled = () => void utils.alerts.list.invalidate();
  const stored = {
    onSuccess: ({ alert }: { alert: AlertView }) => edit((alerts) => withAlert(alerts, alert)),
    onSettled,
  };
  return {
    create: trpc.alerts.create.useMutation(stored),
    update: trpc.alerts.update.useMutation(stored),
    remove: trpc.alerts.delete.useMutation({
      onSuccess: (_answer, { id }) => edit((alerts) => alerts.filter((each) => each.id !== id)),
      onSettled,
    }),
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

/** `alerts` with `alert` put in (replacing the one of its id), in the server's order: by id. */
function withAlert(alerts: readonly AlertView[], alert: AlertView): AlertView[] {
  return [...alerts.filter((each) => each.id !== alert.id), alert].sort((a, b) => a.id - b.id);
}
