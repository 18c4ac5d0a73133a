import { postgresStore } from "../pg/store.ts";
import { openDatabase } from "../sqlite/connection.ts";
import { sqliteStore } from "../sqlite/store.ts";
import type { Store } from "./store.ts";

export type StoreConfig = { kind: "sqlite"; file: string } | { kind: "postgres"; url: string };

/** Opens the store the configuration names and brings its schema up to the committed migrations. */
export async function openStore(config: StoreConfig): Promise<Store> {
  if (config.kind === "sqlite") return sqliteStore(openDatabase(config.file));
  return postgresStore(config.url);
}
