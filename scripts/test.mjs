// Runs every test project in one vitest run and closes with the plain line CI reads:
// "N passed, N failed". Extra arguments go to vitest (e.g. `--project core`).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// The e2e tests drive Debian's Chromium; the db and cluster tests start Debian's PostgreSQL and
// Redis in temp dirs. On a fresh machine (as root) fetch what is missing, as CI does.
const postgresInstalled = () =>
  existsSync("/usr/lib/postgresql") &&
  readdirSync("/usr/lib/postgresql").some((v) => existsSync(`/usr/lib/postgresql/${v}/bin/initdb`));
const wanted = [
  ["chromium", existsSync("/usr/bin/chromium")],
  ["postgresql", postgresInstalled()],
  ["redis-server", existsSync("/usr/bin/redis-server")],
]
  .filter(([, present]) => !present)
  .map(([name]) => name);
if (wanted.length > 0) {
  if (process.getuid?.() === 0) {
    console.log(`Installing Debian's ${wanted.join(", ")} for the tests…`);
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    spawnSync("apt-get", ["update"], { stdio: "inherit", env });
    spawnSync("apt-get", ["install", "-y", ...wanted], { stdio: "inherit", env });
  } else {
    console.error(
      `The tests need Debian's ${wanted.join(", ")}: sudo apt-get install -y ${wanted.join(" ")}`,
    );
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

/** Where the minutes go: the ten slowest test files, so a slow one is seen when it lands. */
function printSlowest(files) {
  const slowest = files
    .map((f) => ({ name: f.name.replace(`${process.cwd()}/`, ""), ms: f.endTime - f.startTime }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 10);
  console.log("\nSlowest test files:");
  for (const f of slowest) console.log(`  ${(f.ms / 1000).toFixed(1).padStart(6)} s  ${f.name}`);
}

let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const result = JSON.parse(readFileSync(report, "utf8"));
  passed = result.numPassedTests;
  failed = result.numFailedTests;
  skipped = result.numPendingTests + result.numTodoTests;
  // A file that fails to load, or whose set-up fails (its tests then count as skipped), has no
  // failed test to count, yet the run must not look green: each such file counts as one.
  failed += result.testResults.filter(
    (f) => f.status === "failed" && !f.assertionResults.some((a) => a.status === "failed"),
  ).length;
  printSlowest(result.testResults);
} catch {
  failed = Math.max(failed, 1);
}
rmSync(dir, { recursive: true, force: true });

console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(run.status === 0 && failed === 0 ? 0 : 1);
