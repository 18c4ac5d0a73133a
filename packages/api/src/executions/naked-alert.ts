// A naked leg is told at once (docs/user-guide.md "Live orders"): when the
// guard leaves the first leg unhedged (the ticket chose "alert", a flatten failed, live orders were
// switched off mid-campaign), a History row and one outbox row per channel the trader uses
// (Telegram, webhook) are written in one transaction, as a position's target or stop is, and the
// senders are woken. The browser's toast reads the campaign's status (useNakedLegs).
import type { Store, StoredExecution } from "@spreadwatch/db";
import { nakedLegWebhookBody } from "../alerts/firing-payload.ts";
import { log } from "../log.ts";
import type { CampaignDoc } from "./ticket.ts";

/** Left unhedged: the first leg's fills less its hedge's (in first-leg units) and flattens. */
export function nakedQuantity(doc: CampaignDoc): number {
  const { work, hedge } = doc.guard;
  const filled = (role: string) =>
    doc.state.orders.filter((o) => o.role === role).reduce((t, o) => t + o.filled, 0);
  const hedged = (filled("hedge") * work.quantity) / hedge.quantity;
  return Math.max(0, filled("work") - filled("flatten") - hedged);
}

export function nakedLegText(
  row: Pick<StoredExecution, "id" | "spread">,
  doc: CampaignDoc,
  why: string,
) {
  const leg = doc.legs[doc.guard.work.name];
  const quantity = nakedQuantity(doc);
  return (
    `⚠️ Naked leg: ${doc.ticket.side} ${doc.ticket.lots} × ${row.spread} through Kite left ` +
    `${quantity} of ${leg?.tradingsymbol ?? doc.guard.work.name} (${doc.guard.work.side}) ` +
    `unhedged: ${doc.state.tripped ?? why.replace(/^alert: /, "")}. Campaign ${row.id}: act in Kite now.`
  );
}

/** Queues the naked-leg message on the trader's channels; `onQueued` wakes the senders. */
export async function alertNakedLeg(
  store: Pick<Store, "firings">,
  row: Pick<StoredExecution, "id" | "spread" | "ownerId">,
  doc: CampaignDoc,
  why: string,
  now: number,
  onQueued: () => void,
): Promise<void> {
  const text = nakedLegText(row, doc, why);
  const quantity = nakedQuantity(doc);
  const symbol = `${row.spread}_${doc.ticket.side}`;
  const [recorded] = await store.firings.recordPositionCrossings([
    {
      userId: row.ownerId,
      symbol,
      value: quantity,
      threshold: 0,
      direction: "above",
      state: "fired",
      note: text,
      at: now,
      now,
      text,
      webhookBody: (firingId) =>
        nakedLegWebhookBody({
          firingId,
          executionId: row.id,
          spread: row.spread,
          side: doc.ticket.side,
          lots: doc.ticket.lots,
          nakedQuantity: quantity,
          firedAt: now,
          text,
        }),
    },
  ]);
  log.warn({ ownerId: row.ownerId, id: row.id, queued: recorded?.outbox.length ?? 0 }, text);
  if ((recorded?.outbox.length ?? 0) > 0) onQueued();
}
