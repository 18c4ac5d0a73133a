import { openDatabase } from "../sqlite/connection.ts";
import { sqliteStore } from "../sqlite/store.ts";
import type { Store } from "./store.ts";

export type StoreConfig = { kind: "sqlite"; file: string } | { kind: "postgres"; url: string };

/** Opens the store the configuration names and brings its schema up to the committed migrations. */
export async function openStore(config: StoreConfig): Promise<Store> {
  if (config.kind === "sqlite") return sqliteStore(openDatabase(config.file));
  // Loaded only for PostgreSQL: an embedded server never evaluates pg and its drizzle driver.
  const { postgresStore } = await import("../pg/store.ts");
  return postgresStore(config.url);
}
