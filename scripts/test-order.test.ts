import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { TestSpecification, Vitest } from "vitest/node";
import { LongestFirst } from "./test-order.ts";

const ROOT = "/repo";

/** The parts of vitest's context the sequencer reads: the root and the cache of the last run. */
function sequencer(cached: Record<string, number> = {}, sizes: Record<string, number> = {}) {
  const ctx = {
    config: { root: ROOT },
    cache: {
      getFileTestResults: (key: string) =>
        key in cached ? { duration: cached[key], failed: false } : undefined,
      getFileStats: (key: string) => (key in sizes ? { size: sizes[key] } : undefined),
    },
  };
  return new LongestFirst(ctx as unknown as Vitest);
}

const spec = (project: string, path: string) =>
  ({ project: { name: project }, moduleId: join(ROOT, path) }) as unknown as TestSpecification;

const order = async (files: TestSpecification[], sorter = sequencer()) =>
  (await sorter.sort(files)).map((each) => `${each.project.name}:${each.moduleId.slice(6)}`);

describe("the order test files start in", () => {
  it("puts the files the last CI run found slowest first, then e2e, api (shared or isolated) and db files, then the rest", async () => {
    const files = [
      spec("core", "packages/core/src/spread.test.ts"),
      spec("api", "packages/api/test/auth.test.ts"),
      spec("api-isolated", "packages/api/test/throttle.test.ts"),
      spec("web", "packages/web/src/rows.test.ts"),
      spec("api", "packages/api/test/positions-crash.test.ts"),
      spec("db", "packages/db/src/store.test.ts"),
      spec("e2e", "packages/web/e2e/login.test.ts"),
      spec("e2e", "packages/web/e2e/accessibility.test.ts"),
      spec("e2e", "packages/web/e2e/session.test.ts"),
    ];
    expect(await order(files)).toEqual([
      "api:packages/api/test/positions-crash.test.ts",
      "e2e:packages/web/e2e/accessibility.test.ts",
      "e2e:packages/web/e2e/session.test.ts",
      "e2e:packages/web/e2e/login.test.ts",
      "api:packages/api/test/auth.test.ts",
      "api-isolated:packages/api/test/throttle.test.ts",
      "db:packages/db/src/store.test.ts",
      "core:packages/core/src/spread.test.ts",
      "web:packages/web/src/rows.test.ts",
    ]);
  });

  it("prefers the last local run's durations, and of two alike the larger file", async () => {
    const files = [
      spec("e2e", "packages/web/e2e/accessibility.test.ts"),
      spec("core", "packages/core/src/small.test.ts"),
      spec("core", "packages/core/src/large.test.ts"),
    ];
    const sorter = sequencer(
      // Half a second last time: shorter than an unknown unit file is taken to be.
      { "e2e:packages/web/e2e/accessibility.test.ts": 500 },
      { "core:packages/core/src/small.test.ts": 100, "core:packages/core/src/large.test.ts": 900 },
    );
    expect(await order(files, sorter)).toEqual([
      "core:packages/core/src/large.test.ts",
      "core:packages/core/src/small.test.ts",
      "e2e:packages/web/e2e/accessibility.test.ts",
    ]);
  });

  it("starts the file that watches the run's first start before all others, however short", async () => {
    const files = [
      spec("e2e", "packages/web/e2e/accessibility.test.ts"),
      spec("e2e", "packages/web/e2e/first-start-statistics.test.ts"),
      spec("api", "packages/api/test/positions-crash.test.ts"),
    ];
    const sorter = sequencer({ "e2e:packages/web/e2e/first-start-statistics.test.ts": 1_000 });
    expect((await order(files, sorter))[0]).toBe(
      "e2e:packages/web/e2e/first-start-statistics.test.ts",
    );
  });
});
