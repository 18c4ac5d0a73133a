import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { createDatabase } from "../testing/postgres.ts";
import { acquireLeadership, type Leadership } from "./leadership.ts";

/** A contender: whether it leads, how often it found the lock taken, whether it lost. */
function contender(url: string | undefined) {
  const state = {
    leadership: undefined as Leadership | undefined,
    waits: 0,
    lost: undefined as Error | undefined,
    aborter: new AbortController(),
  };
  const acquired = acquireLeadership(url, {
    retryMs: 100,
    signal: state.aborter.signal,
    onWaiting: () => state.waits++,
    onLost: (error) => {
      state.lost = error;
    },
  }).then((leadership) => {
    state.leadership = leadership;
  });
  acquired.catch(() => {});
  return state;
}

// Waits have their own 10 s deadlines; the test may take as long as two of them.
describe("leadership on PostgreSQL", { timeout: 30_000 }, () => {
  let database: Awaited<ReturnType<typeof createDatabase>>;
  let admin: pg.Client;
  const contenders: ReturnType<typeof contender>[] = [];
  const start = () => {
    const c = contender(database.url);
    contenders.push(c);
    return c;
  };

  beforeAll(async () => {
    database = await createDatabase(inject("postgresUrl"));
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
  });
  afterAll(async () => {
    for (const c of contenders) {
      c.aborter.abort();
      await c.leadership?.release();
    }
    await admin.end();
    await database.drop();
  });

  /** Backends of this database holding an advisory lock: at most one ever may. */
  async function lockHolders(): Promise<number[]> {
    const { rows } = await admin.query<{ pid: number }>(
      `SELECT l.pid FROM pg_locks l JOIN pg_database d ON d.oid = l.database
        WHERE l.locktype = 'advisory' AND l.granted AND d.datname = current_database()`,
    );
    return rows.map((r) => r.pid);
  }

  it("exactly one of two contenders leads; the other takes over when the leader's backend dies", async () => {
    const first = start();
    await vi.waitFor(() => expect(first.leadership).toBeDefined(), { timeout: 10_000 });
    const second = start();
    // Let the second find the lock taken a few times: it must still not lead.
    await vi.waitFor(() => expect(second.waits).toBeGreaterThanOrEqual(3), { timeout: 10_000 });
    expect(second.leadership).toBeUndefined();
    const [holder, ...others] = await lockHolders();
    expect(others).toEqual([]);

    await admin.query("SELECT pg_terminate_backend($1)", [holder]);
    await vi.waitFor(() => expect(first.lost).toBeInstanceOf(Error), { timeout: 10_000 });
    await vi.waitFor(() => expect(second.leadership).toBeDefined(), { timeout: 10_000 });
    expect(await lockHolders()).toHaveLength(1);
  });

  it("a released leadership passes to the next contender", async () => {
    let leader = contenders.find((c) => c.leadership && !c.lost);
    if (!leader) {
      // Run on its own (-t): make a leader first.
      leader = start();
      const first = leader;
      await vi.waitFor(() => expect(first.leadership).toBeDefined(), { timeout: 10_000 });
    }
    const waiting = start();
    await vi.waitFor(() => expect(waiting.waits).toBeGreaterThanOrEqual(1), { timeout: 10_000 });
    await leader?.leadership?.release();
    await vi.waitFor(() => expect(waiting.leadership).toBeDefined(), { timeout: 10_000 });
    expect(leader?.lost).toBeUndefined();
    expect(await lockHolders()).toHaveLength(1);
  });
});

describe("leadership embedded (SQLite)", () => {
  it("the one process leads at once", async () => {
    const onLost = vi.fn();
    const leadership = await acquireLeadership(undefined, { onLost });
    await leadership.release();
    expect(onLost).not.toHaveBeenCalled();
  });
});
