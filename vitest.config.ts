import { configDefaults, defineConfig } from "vitest/config";
import { LongestFirst } from "./scripts/test-order.ts";

// One run covers every package; e2e drives a real Chromium against the built app and gets longer
// timeouts. A test file mostly waits on processes of its own (a server, Chromium, PostgreSQL), so
// four files run at once on two cores. With three, the cores idled whenever two of the files that
// mostly wait on the clock (a failover's replay, a heartbeat, a first start watched) ran together:
// 739 s against 695 s with four, 59 against 20 CPU s idle (BENCHMARKS.md §41).
/**
 * The api files that need a module graph of their own: they mock a module (throttle.test.ts
 * counts the real password checks through `vi.mock`) or assert on the server's shared logger,
 * whose `warnEvery` throttle is module-level (src/log.ts): a line another file's server logged
 * under the same key minutes earlier would be held back, and a spy left on `log` counts the next
 * file's lines.
 */
const API_ISOLATED = [
  "packages/api/test/throttle.test.ts",
  "packages/api/test/edge-cookies.test.ts",
  "packages/api/test/edge-responses.test.ts",
  "packages/api/test/positions-margin.test.ts",
];

/**
 * expect.poll's own default (1 s) is a timed assertion in disguise: a loaded machine misses it.
 * Set in every project, since a project does not inherit the root's `test` options (at the root
 * it reached no test: a poll there still gave up after 1 s). vi.waitFor has no such setting; its
 * calls pass a timeout of their own.
 */
const EXPECT = { poll: { timeout: 15_000 } };

const API_SETUP = {
  expect: EXPECT,
  // Process-level tests start what `pnpm start` runs: built (or brought up to date) once.
  globalSetup: ["packages/api/test/production-build-setup.ts"],
  // Safety nets for a hung test, not measures of speed: on a loaded box (load 30 on two cores) a
  // per-test server start with two logins took over 30 s, and a test whose assertions all held
  // failed on the net instead (docs/architecture.md, "Tests").
  testTimeout: 60_000,
  hookTimeout: 120_000,
};

export default defineConfig({
  test: {
    maxWorkers: 4,
    // Longest files first, whatever their project: see scripts/test-order.ts.
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: {
          name: "core",
          expect: EXPECT,
          include: ["packages/core/{src,test}/**/*.test.ts"],
          // Pure modules: the files of a worker share one module graph instead of each importing
          // core again (docs/architecture.md, "Tests").
          isolate: false,
          // A safety net, not a measure: at load 29 on two cores six property and exactness tests
          // ran past vitest's default 5 s and failed on it (docs/architecture.md, "Tests").
          testTimeout: 60_000,
        },
      },
      // The web app's pure modules (rows, texts, chart plugins), beside them; no browser. The
      // scripts' tests read the built dist/ (the first load's size), building it when stale.
      {
        test: {
          name: "web",
          expect: EXPECT,
          include: ["packages/web/src/**/*.test.ts", "packages/web/scripts/**/*.test.ts"],
          environment: "node",
          // Pure modules, as core's; the one module-level setting (the chart's value scale) is
          // put back by the test that changes it. The first-load size test may rebuild dist.
          isolate: false,
          hookTimeout: 600_000,
        },
      },
      // The documents against the repository: links, anchors, `pnpm …` commands (no build needed).
      { test: { name: "docs", include: ["scripts/**/*.test.ts"], isolate: false, expect: EXPECT } },
      {
        test: {
          name: "db",
          expect: EXPECT,
          include: ["packages/db/src/**/*.test.ts"],
          // No module-level state and a database (or SQLite file) of each test's own: the files of
          // a worker share one module graph instead of each importing drizzle, pg and the stores
          // again (docs/architecture.md, "Tests").
          isolate: false,
          // A safety net, not a measure: at load 25 on two cores two PostgreSQL tests (a migration,
          // two claimers) ran past vitest's default 5 s and failed on it.
          testTimeout: 60_000,
          // One real PostgreSQL for the run; each test file makes its own database on it.
          globalSetup: ["packages/db/src/testing/postgres-setup.ts"],
        },
      },
      // The api tests start real servers in-process. Most files share one module graph per worker
      // (importing the whole server costs each isolated file seconds, tens loaded); the few that
      // would leave state behind for the next file run isolated (docs/architecture.md, "Tests").
      {
        test: {
          name: "api",
          include: ["packages/api/{src,test}/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...API_ISOLATED],
          isolate: false,
          ...API_SETUP,
        },
      },
      { test: { name: "api-isolated", include: API_ISOLATED, ...API_SETUP } },
      {
        test: {
          name: "e2e",
          expect: EXPECT,
          include: ["packages/web/e2e/**/*.test.ts"],
          // The files of a worker share one module graph (playwright-core, the harness, the api's
          // fakes) instead of each importing them again; each file still starts its own server
          // and the files of a worker share its Chromium (suite.ts); no other helper keeps
          // module-level state (docs/architecture.md, "Tests").
          isolate: false,
          // The build, then (in the background) the one simulator first start the simulator
          // files copy rather than each backfilling the same 30 days (docs/operations.md).
          globalSetup: [
            "packages/api/test/production-build-setup.ts",
            "packages/web/e2e/simulator-template-setup.ts",
          ],
          testTimeout: 60_000,
          // A simulator app's first start (30 days backfilled) may take minutes on a loaded box,
          // and a file's beforeAll may wait for the shared one (harness.ts, TEMPLATE_WAIT_MS).
          hookTimeout: 480_000,
        },
      },
    ],
  },
});
