import { execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

/**
 * A throwaway PostgreSQL server from Debian's packages for tests: real engine, temp directory,
 * free port, trust auth on loopback only. One per test run (see postgres-setup.ts); each test
 * file takes its own database from it.
 */
export interface PostgresServer {
  /** Connects as the `postgres` superuser to the `postgres` database. */
  url: string;
  stop(): void;
}

/** Debian's binaries (bookworm: 15), newest major installed, unless POSTGRES_BIN says otherwise. */
function binDir(): string {
  if (process.env.POSTGRES_BIN) return process.env.POSTGRES_BIN;
  const root = "/usr/lib/postgresql";
  const majors = existsSync(root)
    ? readdirSync(root)
        .map(Number)
        .filter((n) => existsSync(join(root, String(n), "bin", "initdb")))
    : [];
  const newest = Math.max(...majors);
  if (!Number.isFinite(newest)) {
    throw new Error("PostgreSQL is not installed: apt-get install postgresql (see .ci/run)");
  }
  return join(root, String(newest), "bin");
}

/** initdb refuses to run as root, so as root everything runs as the `postgres` account. */
function asPostgres(command: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const [file, argv] = asRoot
    ? ["runuser", ["-u", "postgres", "--", join(binDir(), command), ...args]]
    : [join(binDir(), command), args];
  execFileSync(file, argv, { stdio: ["ignore", "pipe", "pipe"] });
}

function postgresIds(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }));
  return { uid: id("-u"), gid: id("-g") };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startPostgres(): Promise<PostgresServer> {
  const root = mkdtempSync(join(tmpdir(), "spreadwatch-pg-"));
  const data = join(root, "data");
  const sockets = join(root, "sockets");
  chmodSync(root, 0o700);
  if (process.getuid?.() === 0) {
    const { uid, gid } = postgresIds();
    chownSync(root, uid, gid);
  }
  asPostgres("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  // Tests need speed, not durability: a lost test database is simply made again.
  const options = [
    `-p ${port}`,
    `-k ${sockets}`,
    "-c listen_addresses=127.0.0.1",
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
    "-c max_connections=200",
  ].join(" ");
  mkdirSync(sockets);
  if (process.getuid?.() === 0) {
    const { uid, gid } = postgresIds();
    chownSync(sockets, uid, gid);
  }
  asPostgres("pg_ctl", ["-D", data, "-o", options, "-l", join(root, "log"), "-w", "start"]);
  reapWhenGone(process.pid, data, root);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        asPostgres("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}

/**
 * A test run that is killed never reaches its teardown; a detached watcher stops the server
 * and removes its directory once this process is gone, so no postgres outlives its run.
 */
function reapWhenGone(pid: number, data: string, root: string): void {
  const pgCtl = join(binDir(), "pg_ctl");
  const stop = process.getuid?.() === 0 ? `runuser -u postgres -- ${pgCtl}` : pgCtl;
  const script = `while kill -0 ${pid} 2>/dev/null; do sleep 2; done
[ -d '${data}' ] && ${stop} -D '${data}' -m immediate -w stop >/dev/null 2>&1
rm -rf '${root}'`;
  spawn("sh", ["-c", script], { detached: true, stdio: "ignore" }).unref();
}

/** A fresh, empty database on the server; `drop` removes it (closing whatever still uses it). */
export async function createDatabase(
  serverUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
