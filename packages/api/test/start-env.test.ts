// `pnpm start` sets what START_ENV names (scripts/production-build.mjs: glibc's malloc arenas)
// unless the caller set it, and the tests and benches that start the server process pass the
// same, so what they measure is what `pnpm start` runs (BENCHMARKS.md §47).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, START_ENV } from "../../../scripts/production-build.mjs";

const startScript = (
  JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    scripts: { start: string };
  }
).scripts.start;

/** What the start script's shell hands the server, with `node` swapped for a printout of it. */
function environmentOfStart(callerEnv: Record<string, string>): Record<string, string | undefined> {
  const printing = startScript.replace(
    "node scripts/start.mjs",
    `node -e 'console.log(JSON.stringify(process.env))'`,
  );
  expect(printing).not.toBe(startScript);
  const out = execFileSync("sh", ["-c", printing], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", ...callerEnv },
    encoding: "utf8",
  });
  return JSON.parse(out);
}

describe("pnpm start's environment", () => {
  it("has START_ENV's settings", () => {
    const env = environmentOfStart({});
    for (const [name, value] of Object.entries(START_ENV)) expect(env[name]).toBe(value);
  });

  it("keeps a setting the caller made", () => {
    const env = environmentOfStart({ MALLOC_ARENA_MAX: "4" });
    expect(env.MALLOC_ARENA_MAX).toBe("4");
  });
});
