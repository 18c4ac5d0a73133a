import type { Client } from "pg";

/** Any fixed number; advisory locks are per database, so one cluster's instances share it. */
const LEADER_LOCK = 7_361_110_002;
const APPLICATION_NAME = "spreadwatch-leader";

export interface LeadershipOptions {
  /**
   * Called once when leadership is lost without release() (connection or server died): the
   * lock is gone with the connection, so the caller must stop leader-only work at once.
   */
  onLost: (error: Error) => void;
  /** Called each time the lock was found held by another instance (for logs, and tests). */
  onWaiting?: () => void;
  /** How often a non-leader tries again, and the leader checks its connection. */
  retryMs?: number;
  /** Stops waiting for leadership (the promise rejects). */
  signal?: AbortSignal;
}

export interface Leadership {
  /** Stops leading: the lock is freed at once, so another instance can lead. */
  release(): Promise<void>;
}

/**
 * Resolves once this instance leads. On PostgreSQL the leader holds a session advisory lock on
 * a connection of its own: no row, no expiry to renew, and the server drops the lock the moment
 * that connection or its process dies, so another instance takes over. Without a URL (embedded
 * SQLite) the one process simply leads.
 */
export async function acquireLeadership(
  url: string | undefined,
  options: LeadershipOptions,
): Promise<Leadership> {
  if (url === undefined) return { release: async () => {} };
  // Loaded only with a URL: the embedded server leads without pg (BENCHMARKS.md §47).
  const { default: pg } = await import("pg");
  const retryMs = options.retryMs ?? 2_000;
  for (;;) {
    options.signal?.throwIfAborted();
    const client = new pg.Client({
      connectionString: url,
      application_name: APPLICATION_NAME,
      keepAlive: true,
    });
    // Errors also arrive as events; without a listener they would crash the process.
    client.on("error", () => {});
    try {
      await client.connect();
      for (;;) {
        const { rows } = await client.query<{ ok: boolean }>(
          "SELECT pg_try_advisory_lock($1) AS ok",
          [LEADER_LOCK],
        );
        if (rows[0]?.ok) return hold(client, options, retryMs);
        options.onWaiting?.();
        await pause(retryMs, options.signal);
      }
    } catch {
      await client.end().catch(() => {});
      if (options.signal?.aborted) throw options.signal.reason;
      // The database is unreachable: keep trying, as a non-leader, at the same pace.
      await pause(retryMs, options.signal);
    }
  }
}

function hold(client: Client, options: LeadershipOptions, checkMs: number): Leadership {
  let over = false;
  const lost = (error: Error) => {
    if (over) return;
    over = true;
    clearInterval(heartbeat);
    client.end().catch(() => {});
    options.onLost(error);
  };
  client.on("error", lost);
  client.on("end", () => lost(new Error("the leadership connection closed")));
  // A connection that dies without a word (a cut cable) is only noticed when used.
  const heartbeat = setInterval(() => {
    client.query("SELECT 1").catch((error: unknown) => lost(asError(error)));
  }, checkMs);
  heartbeat.unref();
  return {
    async release() {
      if (over) return;
      over = true;
      clearInterval(heartbeat);
      await client.query("SELECT pg_advisory_unlock($1)", [LEADER_LOCK]).catch(() => {});
      await client.end().catch(() => {});
    },
  };
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener("abort", aborted);
      resolve();
    }
    function aborted() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener("abort", aborted, { once: true });
  });
}
