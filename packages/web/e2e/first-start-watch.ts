import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { RunningApp } from "./harness.ts";

/**
 * The run's one simulator first start (simulator-template-setup.ts) is the production build
 * backfilling a month in the background. The file that checks what a first start shows while it
 * backfills (first-start-statistics.test.ts) watches that one instead of making a second month
 * (~40 CPU s of the run). The two sides share only files in the template's directory.
 */
export const WATCH_FILES = {
  /** The first start's address, written once it listens. */
  address: "address",
  /**
   * Made once (O_EXCL) by whoever decides first: the watching file, which then holds the server
   * until it is done, or the set-up once the backfill is done, which then stops it.
   */
  claim: "claim",
  /** Written by the watching file when it is done with the server. */
  watched: "watched",
} as const;

/** How long the watching file waits for the first start to listen. */
const ADDRESS_WAIT_MS = 120_000;

/** Claims `claim` in `dir`: true when this caller made it first. */
export function claimFirstStart(dir: string): boolean {
  try {
    closeSync(openSync(join(dir, WATCH_FILES.claim), "wx"));
    return true;
  } catch {
    return false;
  }
}

/**
 * The run's first start while at most half of its month is made, held for the caller until its
 * `stop()`; undefined when there is none to watch (outside vitest, the template made or given up,
 * the backfill too far along for the checks of what shows meanwhile): the caller makes its own.
 */
export async function watchRunFirstStart(): Promise<RunningApp | undefined> {
  if (!process.env.VITEST) return undefined;
  const { inject } = await import("vitest");
  const dir = inject("simulatorTemplate");
  if (!dir) return undefined;
  const at = (name: string) => join(dir, name);
  const unwatched = (why: string) => {
    console.warn(`not watching the run's first start (${why}): making one of its own`);
    return undefined;
  };
  const deadline = Date.now() + ADDRESS_WAIT_MS;
  while (!existsSync(at(WATCH_FILES.address))) {
    if (existsSync(at("data")) || existsSync(at("failed"))) return unwatched("it is over");
    if (Date.now() > deadline) return unwatched("it did not listen in time");
    await sleep(100);
  }
  if (!claimFirstStart(dir)) return unwatched("its backfill is done");
  const app = {
    url: readFileSync(at(WATCH_FILES.address), "utf8").trim(),
    async stop() {
      writeFileSync(at(WATCH_FILES.watched), "");
    },
  };
  const health = await fetch(`${app.url}/api/health`)
    .then((response) => response.json())
    .catch(() => undefined);
  const backfill = health?.history?.backfill;
  if (backfill?.running && backfill.done <= backfill.total / 2) return app;
  await app.stop();
  return unwatched(`its backfill is at ${backfill?.done} of ${backfill?.total} days`);
}
