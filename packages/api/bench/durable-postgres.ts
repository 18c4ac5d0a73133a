// A throw-away PostgreSQL for the benches with production durability. The test helper starts it
// with fsync, synchronous_commit and full_page_writes off (tests want speed); a bench that times
// writes must pay what a real installation pays, so this restarts that same server with the
// defaults (all three on), keeping its port, socket directory and connection limit. `stop` and
// the helper's reaper still apply: the data directory does not move.
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { type PostgresServer, startPostgres } from "@spreadwatch/db/testing/postgres";
import { pgClient } from "./pg-client.ts";

export interface BenchPostgres extends PostgresServer {
  /** The durability settings the server runs with, as `SHOW` reads them. */
  settings: Record<string, string>;
}

const SHOWN = [
  "fsync",
  "synchronous_commit",
  "full_page_writes",
  "shared_buffers",
  "server_version",
];

async function show(url: string, names: readonly string[]): Promise<Record<string, string>> {
  const client = await pgClient(url);
  try {
    const values: Record<string, string> = {};
    for (const name of names) {
      const { rows } = await client.query(`SHOW ${name}`);
      values[name] = String(Object.values(rows[0] as object)[0]);
    }
    return values;
  } finally {
    await client.end();
  }
}

/** pg_ctl of the running server's major version, as the `postgres` account when we are root. */
function pgCtl(major: string, args: string[]): void {
  const bin = join(process.env.POSTGRES_BIN ?? `/usr/lib/postgresql/${major}/bin`, "pg_ctl");
  const [file, argv] =
    process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, args];
  execFileSync(file, argv, { stdio: ["ignore", "pipe", "pipe"] });
}

export async function startDurablePostgres(): Promise<BenchPostgres> {
  const server = await startPostgres();
  const current = await show(server.url, [
    "data_directory",
    "port",
    "unix_socket_directories",
    "max_connections",
    "server_version_num",
  ]);
  const data = current.data_directory as string;
  const major = String(Math.floor(Number(current.server_version_num) / 10_000));
  const options = [
    `-p ${current.port}`,
    `-k ${current.unix_socket_directories}`,
    "-c listen_addresses=127.0.0.1",
    `-c max_connections=${current.max_connections}`,
  ].join(" ");
  pgCtl(major, ["-D", data, "-o", options, "-l", join(dirname(data), "log"), "-w", "restart"]);
  const settings = await show(server.url, SHOWN);
  if (settings.fsync !== "on" || settings.synchronous_commit !== "on") {
    throw new Error(`PostgreSQL did not restart durable: ${JSON.stringify(settings)}`);
  }
  return { ...server, settings };
}
