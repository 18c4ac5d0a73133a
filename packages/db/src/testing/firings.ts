import { openDatabase } from "../sqlite/connection.ts";

/** A History row as the alert engine (or a browser trigger) writes it, for tests to seed. */
export interface SeededFiring {
  userId: number;
  alertId: number | null;
  firedAt: number;
  symbol?: string;
  metric?: string;
  value?: number;
  threshold?: number;
  direction?: "above" | "below";
  state?: "fired" | "held";
  note?: string | null;
  /** [channel, attempts (failed tries), state] per outbox row. */
  outbox?: readonly [string, number, "sent" | "failed" | "pending"][];
}

/**
 * Writes firings and their outbox rows into a SQLite file beside a running server, in one
 * transaction; returns their ids. A pending row falls due only in an hour, so the server's
 * senders leave it alone and the test sees it pending.
 */
export function seedFirings(file: string, firings: readonly SeededFiring[]): number[] {
  const db = openDatabase(file);
  try {
    const firing = db.sqlite.prepare(
      `INSERT INTO alert_firings (user_id, alert_id, symbol, metric, value, threshold, direction,
         state, source, note, fired_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'server', ?, ?, ?) RETURNING id`,
    );
    const outbox = db.sqlite.prepare(
      `INSERT INTO outbox (user_id, alert_id, channel, firing_id, chat_id, text,
         created_at, attempts, next_attempt_at, sent_at, failed_at)
       VALUES (?, ?, ?, ?, '', 'seeded', ?, ?, ?, ?, ?)`,
    );
    return db.sqlite.transaction(() =>
      firings.map((f) => {
        const { id } = firing.get(
          f.userId,
          f.alertId,
          f.symbol ?? "GC_BUY",
          f.metric ?? "spread",
          f.value ?? 101.25,
          f.threshold ?? 100,
          f.direction ?? "above",
          f.state ?? "fired",
          f.note ?? null,
          f.firedAt,
          f.firedAt,
        ) as { id: number };
        for (const [channel, attempts, state] of f.outbox ?? []) {
          outbox.run(
            f.userId,
            f.alertId,
            channel,
            id,
            f.firedAt,
            attempts,
            Date.now() + 3_600_000,
            state === "sent" ? f.firedAt + 1_000 : null,
            state === "failed" ? f.firedAt + 1_000 : null,
          );
        }
        return id;
      }),
    )();
  } finally {
    db.close();
  }
}
