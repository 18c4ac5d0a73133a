import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The order a run starts its test files in: longest first, so the minutes-long browser files are
 * not the last to start while two workers sit idle (docs/architecture.md, "Tests").
 *
 * Vitest's own order runs the projects one after another by name (api, core, db, docs, e2e, web)
 * and, on a clean clone with no timings cached, keeps each project's files in glob order: the e2e
 * files, the longest of all, started last, and a run ended with one of them alone on the machine.
 * Here a file's expected length is its last run's (vitest's cache, after a local run) or, on a
 * clean clone, the table below, else a typical length for its project; ties go to the larger file.
 */

/**
 * Seconds, each file's duration as a `pnpm test` run prints it (its ✓ line, hooks included);
 * refresh it when the slowest files change.
 */
const MEASURED: Readonly<Record<string, number>> = {
  // A quiet clean-clone run at 4e341c9, 2026-12-01 (641 s; BENCHMARKS.md §42): the longest
  // files, and the few of the api and core projects that run longer than their project's typical.
  "packages/api/test/positions-crash.test.ts": 141,
  "packages/web/e2e/accessibility.test.ts": 85,
  "packages/web/e2e/alerts-ui.test.ts": 71,
  "packages/api/test/simulator-history.test.ts": 63,
  "packages/api/test/cluster-failover.test.ts": 46,
  "packages/api/test/cluster-webhook-failover.test.ts": 46,
  "packages/web/e2e/keyboard.test.ts": 45,
  "packages/web/e2e/alert-channels.test.ts": 42,
  "packages/web/e2e/delta.test.ts": 41,
  "packages/web/e2e/phone.test.ts": 40,
  "packages/web/e2e/health.test.ts": 39,
  "packages/web/e2e/alerts-history.test.ts": 38,
  "packages/web/e2e/chart-trading.test.ts": 38,
  "packages/web/e2e/session.test.ts": 38,
  "packages/web/e2e/alert-papercuts.test.ts": 33,
  "packages/web/e2e/positions.test.ts": 33,
  "packages/api/src/history/backfill.test.ts": 27,
  "packages/api/test/history-providers.test.ts": 26,
  "packages/api/test/telegram.test.ts": 21,
  "packages/api/src/feeds/simulator/simulator.test.ts": 20,
  "packages/api/test/history-fetch-process.test.ts": 19,
  "packages/api/test/startup-errors.test.ts": 17,
  "packages/api/src/stats/simulator-roll.test.ts": 16,
  "packages/api/test/cli.test.ts": 12,
  "packages/core/test/package.test.ts": 12,
};

/**
 * Started before all others, whatever their length: the file that watches the run's simulator
 * first start while its backfill is at most half done (packages/web/e2e/first-start-watch.ts),
 * which is only so in its first seconds; started later, it makes a first start of its own.
 */
const FIRST: ReadonlySet<string> = new Set(["packages/web/e2e/first-start-statistics.test.ts"]);

/** A file's typical length in its project, when neither the cache nor the table knows it. */
const TYPICAL: Readonly<Record<string, number>> = { e2e: 30, api: 8, "api-isolated": 8, db: 5 };
const OTHERWISE = 1;

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const expected = (spec: TestSpecification) => {
      const path = relative(root, spec.moduleId);
      if (FIRST.has(path)) return Number.MAX_SAFE_INTEGER;
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
      const seconds = cached ? cached.duration / 1000 : MEASURED[path];
      return seconds ?? TYPICAL[spec.project.name] ?? OTHERWISE;
    };
    const size = (spec: TestSpecification) =>
      this.ctx.cache.getFileStats(`${spec.project.name}:${relative(root, spec.moduleId)}`)?.size ??
      0;
    return [...files].sort((a, b) => expected(b) - expected(a) || size(b) - size(a));
  }
}
