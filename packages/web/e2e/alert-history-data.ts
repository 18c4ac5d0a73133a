// Writes History rows straight into a running app's SQLite file, as the alert engine's
// recordFirings/recordHeld write them; shared by the History e2e test and its screenshot script.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DATABASE_FILE } from "../../api/src/composition.ts";
import { openDatabase } from "../../db/src/sqlite/connection.ts";
import { type SeededFiring, seedFirings } from "../../db/src/testing/firings.ts";

/** A data directory the test owns, so it can reach the app's database beside it. */
export function historyDataDir(): string {
  return mkdtempSync(join(tmpdir(), "spreadwatch-history-e2e-"));
}

export interface SeededUserFiring extends Omit<SeededFiring, "userId"> {
  username: string;
}

/** Inserts server firings (and their outbox rows) for users named; returns their ids. */
export function seedUserFirings(dataDir: string, firings: readonly SeededUserFiring[]): number[] {
  const file = join(dataDir, DATABASE_FILE);
  const db = openDatabase(file);
  let ids: Map<string, number>;
  try {
    const find = db.sqlite.prepare("SELECT id FROM users WHERE username = ?");
    ids = new Map(
      [...new Set(firings.map((f) => f.username))].map((name) => [
        name,
        (find.get(name) as { id: number }).id,
      ]),
    );
  } finally {
    db.close();
  }
  return seedFirings(
    file,
    firings.map(({ username, ...f }) => ({ ...f, userId: ids.get(username) as number })),
  );
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

/**
 * A History to look at: `older` spread firings a minute apart before `base` (Telegram sent),
 * then, at `base`, a z-score firing whose webhook is still retrying, and a crossing held 30 s
 * before it, noted as the engine words it. Newest first they read: z-score, held, older….
 */
export function sampleHistory(
  username: string,
  alertId: number,
  base: number,
  older: number,
): SeededUserFiring[] {
  return [
    ...Array.from({ length: older }, (_, i) => ({
      username,
      alertId,
      value: 100 + i,
      threshold: 100,
      direction: "above" as const,
      firedAt: base - (i + 1) * 60_000,
      outbox: [["telegram", 0, "sent"]] as [string, number, "sent"][],
    })),
    {
      username,
      alertId,
      value: 2.31,
      threshold: 2,
      metric: "zscore",
      direction: "above",
      firedAt: base,
      outbox: [
        ["telegram", 0, "sent"],
        ["webhook", 2, "pending"],
      ],
    },
    {
      username,
      alertId,
      value: 96.5,
      threshold: 100,
      direction: "below",
      firedAt: base - 30_000,
      state: "held",
      // As the engine words it (leg-watch.ts).
      note: "Held: MCX GOLD quote stale (no quote for 12 s)",
    },
  ];
}
