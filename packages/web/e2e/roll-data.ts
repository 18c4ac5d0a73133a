// Writes rolls straight into a running app's SQLite file, as the leader records them when a key's
// quotes name a new contract; shared by the chart-rolls test and the instruments screenshots.
import { join } from "node:path";
import { DATABASE_FILE } from "../../api/src/composition.ts";
import { openDatabase } from "../../db/src/sqlite/connection.ts";

export interface SeededRoll {
  key: string;
  at: number;
  from: string;
  to: string;
}

export function seedRolls(dataDir: string, rolls: readonly SeededRoll[]): void {
  const db = openDatabase(join(dataDir, DATABASE_FILE));
  try {
    const insert = db.sqlite.prepare(
      "INSERT INTO instrument_rolls (key, at, from_contract, to_contract) VALUES (?, ?, ?, ?)",
    );
    db.sqlite.transaction(() => {
      for (const roll of rolls) insert.run(roll.key, roll.at, roll.from, roll.to);
    })();
  } finally {
    db.close();
  }
}
