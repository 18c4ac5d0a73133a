import { join } from "node:path";
import { openStore, type Store } from "@spreadwatch/db";
import type { Config } from "./config/index.ts";

export const DATABASE_FILE = "spreadwatch.db";

/**
 * The database the config names: PostgreSQL with DATABASE_URL, else the SQLite file in DATA_DIR.
 * Its own small module so the CLIs open it without loading the server.
 */
export function openConfiguredStore(config: Config): Promise<Store> {
  return openStore(
    config.databaseUrl
      ? { kind: "postgres", url: config.databaseUrl }
      : { kind: "sqlite", file: join(config.dataDir, DATABASE_FILE) },
  );
}
