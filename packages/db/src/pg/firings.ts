import { asc, desc, inArray, sql } from "drizzle-orm";
import { firingPageFilter, outboxStates } from "../store/queries.ts";
import { toFiringEntries } from "../store/rules.ts";
import type { FiringStore } from "../store/store.ts";
import {
  type AlertChannel,
  POSITION_NET_METRIC,
  type PositionCrossing,
  type RecordedPositionCrossing,
} from "../store/types.ts";
import type { PgDb } from "./connection.ts";
import { alertFirings, outbox } from "./schema.ts";

/** A user's History page: the firing rows, then their outbox rows in one more round trip. */
export function pgFirings(db: PgDb): FiringStore {
  return {
    async list(userId, page) {
      const rows = await db
        .select()
        .from(alertFirings)
        .where(firingPageFilter(alertFirings, userId, page))
        .orderBy(desc(alertFirings.firedAt), desc(alertFirings.id))
        .limit(page.limit);
      if (rows.length === 0) return [];
      const ofPage = inArray(
        outbox.firingId,
        rows.map((r) => r.id),
      );
      const states = db.select(outboxStates(outbox)).from(outbox).where(ofPage);
      return toFiringEntries(rows, await states.orderBy(asc(outbox.id)));
    },
    recordPositionCrossings: (crossings) =>
      db.transaction(async (tx) => {
        const recorded: (RecordedPositionCrossing | undefined)[] = [];
        for (const crossing of crossings) recorded.push(await recordOne(tx, crossing));
        return recorded;
      }),
  };
}

/** One position crossing: its History row, and a fired one's outbox rows (rare: one by one). */
async function recordOne(
  tx: PgDb,
  c: PositionCrossing,
): Promise<RecordedPositionCrossing | undefined> {
  const { rows: users } = await tx.execute<{
    alerts_enabled: boolean;
    chat_id: string | null;
    has_webhook: boolean;
  }>(sql`
    SELECT u.alerts_enabled, l.chat_id, w.user_id IS NOT NULL AS has_webhook
      FROM users u
      LEFT JOIN telegram_links l ON l.user_id = u.id
      LEFT JOIN user_webhooks w ON w.user_id = u.id
     WHERE u.id = ${c.userId}`);
  const [user] = users;
  if (!user) return undefined;
  const { rows } = await tx.execute<{ id: number }>(sql`
    INSERT INTO alert_firings (user_id, alert_id, symbol, metric, value, threshold, direction,
                               state, source, note, fired_at, created_at)
    VALUES (${c.userId}, NULL, ${c.symbol}, ${POSITION_NET_METRIC}, ${c.value}, ${c.threshold},
            ${c.direction}, ${c.state}, 'server', ${c.note}, ${c.at}, ${c.now})
    RETURNING id`);
  const firingId = Number(rows[0]?.id);
  const queued: { channel: AlertChannel; id: number }[] = [];
  if (c.state !== "fired" || !user.alerts_enabled) return { firingId, outbox: queued };
  const queue = async (channel: AlertChannel, chat: string, text: string) => {
    const { rows: ids } = await tx.execute<{ id: number }>(sql`
      INSERT INTO outbox (user_id, alert_id, channel, firing_id, chat_id, text, created_at,
                          next_attempt_at)
      VALUES (${c.userId}, NULL, ${channel}, ${firingId}, ${chat}, ${text}, ${c.now}, ${c.now})
      RETURNING id`);
    queued.push({ channel, id: Number(ids[0]?.id) });
  };
  if (user.chat_id !== null) await queue("telegram", user.chat_id, c.text);
  if (user.has_webhook) await queue("webhook", "", c.webhookBody(firingId));
  return { firingId, outbox: queued };
}
