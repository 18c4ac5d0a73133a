// A raw `pg` connection for the benches' set-up (bulk inserts, SHOW, counts): the api package does
// not depend on `pg` itself (only @spreadwatch/db does, and the api never sees SQL), so it is
// loaded from the db package rather than added as a dependency for bench code.
import { createRequire } from "node:module";

export interface PgClient {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: Row[] }>;
  end(): Promise<void>;
}

interface PgModule {
  Client: new (options: { connectionString: string }) => PgClient & { connect(): Promise<void> };
}

const fromDb = createRequire(new URL("../../db/package.json", import.meta.url));
const pg = fromDb("pg") as PgModule;

/** A connected client; `end` it when done. */
export async function pgClient(url: string): Promise<PgClient> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}
