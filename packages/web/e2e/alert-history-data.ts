// Writes History rows straight into a running app's SQLite file, as the alert engine's
// recordFirings/recordHeld write them (that code is on the engine branch); shared by the
// History e2e test and its screenshot script.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DATABASE_FILE } from "../../api/src/services.ts";
import { openDatabase } from "../../db/src/connection.ts";

/** A data directory the test owns, so it can reach the app's database beside it. */
export function historyDataDir(): string {
  return mkdtempSync(join(tmpdir(), "spreadwatch-history-e2e-"));
}

export interface SeededFiring {
  username: string;
  alertId: number | null;
  symbol?: string;
  metric?: string;
  value: number;
  threshold: number;
  direction: "above" | "below";
  firedAt: number;
  state?: "fired" | "held";
  note?: string | null;
  /** [channel, attempts (failed tries), state] per outbox row. */
  outbox?: [string, number, "sent" | "failed" | "pending"][];
}

/** Inserts server firings (and their outbox rows) for a user; returns their ids. */
export function seedFirings(dataDir: string, firings: readonly SeededFiring[]): number[] {
  const db = openDatabase(join(dataDir, DATABASE_FILE));
  try {
    const userId = db.sqlite.prepare("SELECT id FROM users WHERE username = ?");
    const firing = db.sqlite.prepare(
      `INSERT INTO alert_firings (user_id, alert_id, symbol, metric, value, threshold, direction,
         state, source, note, fired_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'server', ?, ?, ?) RETURNING id`,
    );
    const outbox = db.sqlite.prepare(
      `INSERT INTO telegram_outbox (user_id, alert_id, channel, firing_id, chat_id, text,
         created_at, attempts, next_attempt_at, sent_at, failed_at)
       VALUES (?, ?, ?, ?, '', 'seeded', ?, ?, ?, ?, ?)`,
    );
    return db.sqlite.transaction(() =>
      firings.map((f) => {
        const user = (userId.get(f.username) as { id: number }).id;
        const { id } = firing.get(
          user,
          f.alertId,
          f.symbol ?? "GC_BUY",
          f.metric ?? "spread",
          f.value,
          f.threshold,
          f.direction,
          f.state ?? "fired",
          f.note ?? null,
          f.firedAt,
          f.firedAt,
        ) as { id: number };
        for (const [channel, attempts, state] of f.outbox ?? []) {
          // A pending row is not due for a minute, so the app's sender leaves it alone.
          outbox.run(
            user,
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

/** Switches an alert off with the reason the engine gives at the limit. */
export function disableWithReason(dataDir: string, alertId: number, reason: string): void {
  const db = openDatabase(join(dataDir, DATABASE_FILE));
  try {
    db.sqlite
      .prepare("UPDATE alerts SET enabled = 0, disabled_reason = ? WHERE id = ?")
      .run(reason, alertId);
  } finally {
    db.close();
  }
}
