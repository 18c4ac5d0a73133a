import { asc, desc, inArray } from "drizzle-orm";
import { firingPageFilter, outboxStates } from "../store/queries.ts";
import { toFiringEntries } from "../store/rules.ts";
import type { FiringStore } from "../store/store.ts";
import type { AlertChannel, PositionCrossing, RecordedPositionCrossing } from "../store/types.ts";
import { POSITION_NET_METRIC } from "../store/types.ts";
import type { Database } from "./connection.ts";
import { alertFirings, outbox } from "./schema.ts";
import type { Sqlite } from "./store.ts";

/** A user's History page: the firing rows, then their outbox rows. */
export function sqliteFirings({ db, run }: Sqlite): FiringStore {
  return {
    list: (userId, page) =>
      run(() => {
        const rows = db
          .select()
          .from(alertFirings)
          .where(firingPageFilter(alertFirings, userId, page))
          .orderBy(desc(alertFirings.firedAt), desc(alertFirings.id))
          .limit(page.limit)
          .all();
        if (rows.length === 0) return [];
        const ids = rows.map((r) => r.id);
        const states = db
          .select(outboxStates(outbox))
          .from(outbox)
          .where(inArray(outbox.firingId, ids))
          .orderBy(asc(outbox.id))
          .all();
        return toFiringEntries(rows, states);
      }),
    recordPositionCrossings: (crossings) =>
      run(() => db.$client.transaction(() => crossings.map((c) => recordOne(db, c)))()),
  };
}

interface ChannelsRow {
  alerts_enabled: number;
  chat_id: string | null;
  has_webhook: number;
}

/** One position crossing: its History row, and a fired one's outbox rows (rare: one by one). */
function recordOne(db: Database, c: PositionCrossing): RecordedPositionCrossing | undefined {
  const sqlite = db.$client;
  const user = sqlite
    .prepare(
      `SELECT u.alerts_enabled, l.chat_id, w.user_id IS NOT NULL AS has_webhook
         FROM users u
         LEFT JOIN telegram_links l ON l.user_id = u.id
         LEFT JOIN user_webhooks w ON w.user_id = u.id
        WHERE u.id = ?`,
    )
    .get(c.userId) as ChannelsRow | undefined;
  if (!user) return undefined;
  const { id: firingId } = sqlite
    .prepare(
      `INSERT INTO alert_firings (user_id, alert_id, symbol, metric, value, threshold, direction,
                                  state, source, note, fired_at, created_at)
       VALUES (?, NULL, ?, ?, ?, ?, ?, ?, 'server', ?, ?, ?) RETURNING id`,
    )
    .get(
      c.userId,
      c.symbol,
      POSITION_NET_METRIC,
      c.value,
      c.threshold,
      c.direction,
      c.state,
      c.note,
      c.at,
      c.now,
    ) as { id: number };
  const queued: { channel: AlertChannel; id: number }[] = [];
  if (c.state !== "fired" || user.alerts_enabled !== 1) return { firingId, outbox: queued };
  const enqueue = sqlite.prepare(
    `INSERT INTO outbox (user_id, alert_id, channel, firing_id, chat_id, text, created_at,
                         next_attempt_at)
     VALUES (?, NULL, ?, ?, ?, ?, ?, ?) RETURNING id`,
  );
  const queue = (channel: AlertChannel, chat: string, text: string) => {
    const row = enqueue.get(c.userId, channel, firingId, chat, text, c.now, c.now) as {
      id: number;
    };
    queued.push({ channel, id: row.id });
  };
  if (user.chat_id !== null) queue("telegram", user.chat_id, c.text);
  if (user.has_webhook === 1) queue("webhook", "", c.webhookBody(firingId));
  return { firingId, outbox: queued };
}
