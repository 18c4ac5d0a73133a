import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { shippedInstrument } from "@spreadwatch/core";
import { FakeHttp } from "../../api/test/fakes/fake-http.ts";
import { type RestartableApp, startApp } from "./harness.ts";

/** One instrument's quote at a moment: a book (bid/ask) or a single price, with its own time. */
export interface Tick {
  key: string;
  /** Epoch milliseconds: the quote's own time, as a replay file's `ts`. */
  ts: number;
  bid?: number;
  ask?: number;
  price?: number;
}

/** The server and the quotes it is fed; the test decides when each moment reaches it. */
export interface ScriptedApp extends RestartableApp {
  /**
   * Queues moments (each a set of ticks): the server takes the next one on each poll, in order,
   * and the last stays in the answer. Returns when the server has asked for every one of them.
   */
  play(moments: readonly (readonly Tick[])[]): Promise<void>;
  /** Back to the first answer (`initial` alone), as a replay starts over on a restart. */
  rewind(): void;
}

/** The server polls this often; each poll takes one queued moment. */
const POLL_SECONDS = 0.02;
/** Longer than any test: a test-driven source that pauses is not a stale one. */
const SILENCE_SECONDS = 3600;
const PLAYED_TIMEOUT_MS = 120_000;
/** A future quotes a book (bid and ask); spot, index and FX a single price (core's catalogue). */
const hasBook = (key: string) => (shippedInstrument(key)?.month ?? null) !== null;

/**
 * The real server with FEED=composite and one "http-json" provider (docs/operations.md, market
 * data config) polling a fake broker on loopback that answers what the test scripted: instead of
 * a replay that plays from the server's start at the file's pace — and so must open with a lead-in
 * long enough for a loaded page to sign in — the quotes flow when the test plays them, with
 * their own timestamps. `keys` are every key the test will quote; `initial` is the first answer.
 */
export async function startScripted(
  keys: readonly string[],
  initial: readonly Tick[] = [],
): Promise<ScriptedApp> {
  const broker = await new FakeHttp().start();
  let state = new Map<string, Tick>();
  let queue: (readonly Tick[])[] = [];
  let waiting: Array<{ until: number; resolve: () => void }> = [];
  let served = 0;
  let queued = 0;
  const apply = (ticks: readonly Tick[]) => {
    for (const tick of ticks) state.set(tick.key, tick);
  };
  const rewind = () => {
    state = new Map();
    apply(initial);
    queue = [];
    served = queued;
  };
  rewind();
  broker.route("/quotes", () => {
    const next = queue.shift();
    if (next) {
      apply(next);
      served++;
      for (const w of waiting.filter((w) => served >= w.until)) w.resolve();
      waiting = waiting.filter((w) => served < w.until);
    }
    return { json: Object.fromEntries(state) };
  });

  const dir = await mkdtemp(join(tmpdir(), "spreadwatch-e2e-scripted-"));
  const config = join(dir, "market-data.json");
  await writeFile(
    config,
    JSON.stringify({
      silenceSeconds: SILENCE_SECONDS,
      providers: {
        broker: {
          type: "http-json",
          url: `${broker.url}/quotes`,
          quotes: keys.map((key) =>
            hasBook(key)
              ? { key, bid: `${key}.bid`, ask: `${key}.ask`, ts: `${key}.ts` }
              : { key, price: `${key}.price`, ts: `${key}.ts` },
          ),
          pollSeconds: POLL_SECONDS,
          backoff: { initialSeconds: 0.05, maxSeconds: 0.2 },
        },
      },
    }),
  );
  const app = await startApp({ feed: "composite", env: { MARKET_DATA_CONFIG: config } }).catch(
    async (error) => {
      await Promise.all([broker.stop(), rm(dir, { recursive: true, force: true })]);
      throw error;
    },
  );
  return {
    url: app.url,
    halt: () => app.halt(),
    restart: () => app.restart(),
    rewind,
    play(moments) {
      queue.push(...moments);
      queued += moments.length;
      const until = queued;
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(
                `the server took ${served - (until - moments.length)} of ${moments.length} moments in ${PLAYED_TIMEOUT_MS} ms`,
              ),
            ),
          PLAYED_TIMEOUT_MS,
        );
        waiting.push({
          until,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    async stop() {
      await app.stop();
      await broker.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
