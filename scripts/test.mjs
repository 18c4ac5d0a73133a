// Runs every test project in one vitest run and closes with the plain line CI reads:
// "N passed, N failed". Extra arguments go to vitest (e.g. `--project core`).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// The e2e tests drive Debian's Chromium; on a fresh machine (as root) fetch it like CI does.
if (!existsSync("/usr/bin/chromium")) {
  if (process.getuid?.() === 0) {
    console.log("Installing Debian's chromium for the e2e tests…");
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    spawnSync("apt-get", ["update"], { stdio: "inherit", env });
    spawnSync("apt-get", ["install", "-y", "--no-install-recommends", "chromium"], {
      stdio: "inherit",
      env,
    });
  } else {
    console.error("e2e tests need /usr/bin/chromium: sudo apt-get install -y chromium");
  }
}

const dir = mkdtempSync(join(tmpdir(), "spreadwatch-test-"));
const report = join(dir, "report.json");
const run = spawnSync(
  "pnpm",
  [
    "exec",
    "vitest",
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${report}`,
    ...process.argv.slice(2),
  ],
  { stdio: "inherit" },
);

let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const result = JSON.parse(readFileSync(report, "utf8"));
  passed = result.numPassedTests;
  failed = result.numFailedTests;
  skipped = result.numPendingTests + result.numTodoTests;
  // A file that fails to load has no tests to count, yet the run must not look green.
  failed += result.testResults.filter(
    (f) => f.status === "failed" && f.assertionResults.length === 0,
  ).length;
} catch {
  failed = Math.max(failed, 1);
}
rmSync(dir, { recursive: true, force: true });

console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(run.status === 0 && failed === 0 ? 0 : 1);
