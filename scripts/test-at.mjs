// `pnpm test:at "2027-01-25 18:27" [vitest arguments]`: the tests as `pnpm test` runs them, on
// another date and time (UTC). A test must pass on any date (docs/architecture.md, "Tests"): this
// is how a developer tries the days that break date code — IST midnight (18:30 UTC), a contract's
// roll, a month's or a year's end, a leap day, a weekend — without waiting for them.
//
// Every process the run starts (vitest, the servers, PostgreSQL) runs with Debian's libfaketime
// preloaded and its clock moved by the same number of seconds, so they agree on the date, and the
// date moves on from there as it does on a real day. Redis and Chromium keep the real clock
// (libfaketime breaks both); each page's `Date` is moved instead (packages/web/e2e/shifted-clock.ts).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

const [when, ...vitestArgs] = process.argv.slice(2);
const usage = 'usage: pnpm test:at "YYYY-MM-DD HH:MM" [vitest arguments]   (UTC)';
if (!when) fail(usage);

const target = Date.parse(
  `${when.trim().replace(" ", "T")}${/Z|[+-]\d\d:?\d\d$/.test(when) ? "" : "Z"}`,
);
if (Number.isNaN(target)) fail(`"${when}" is not a date and time.\n${usage}`);
const shiftSeconds = Math.round((target - Date.now()) / 1000);
// The days the suite will meet are ahead: a moment before now would replay the fixtures' days
// as days to come, which no run on a real clock sees.
if (shiftSeconds < 0) fail(`${when} is in the past: the tests meet only the days to come.`);

const library = findLibfaketime();
if (!library) fail("libfaketime is missing: apt-get install -y faketime (Debian's package).");

const env = {
  ...process.env,
  TZ: "UTC",
  LD_PRELOAD: library,
  FAKETIME: `+${shiftSeconds}`,
  // Timers and timeouts run on the monotonic clock: it stays real, only the date moves.
  FAKETIME_DONT_FAKE_MONOTONIC: "1",
};
console.log(
  `Running the tests from ${new Date(target).toISOString()} (the clock moved ${shiftSeconds} s)`,
);
// Built first with the real clock, so the build's file times stay true.
const built = run("pnpm", ["build"], process.env);
if (built !== 0) process.exit(built);
process.exit(run(process.execPath, [join(import.meta.dirname, "test.mjs"), ...vitestArgs], env));

function findLibfaketime() {
  for (const dir of readdirSync("/usr/lib", { withFileTypes: true })) {
    const file = join("/usr/lib", dir.name, "faketime/libfaketime.so.1");
    if (dir.isDirectory() && existsSync(file)) return file;
  }
  return undefined;
}

function run(command, args, runEnv) {
  return spawnSync(command, args, { stdio: "inherit", env: runEnv }).status ?? 1;
}

function fail(message) {
  console.error(message);
  process.exit(2);
}
