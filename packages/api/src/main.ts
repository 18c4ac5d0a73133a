import { setFlagsFromString } from "node:v8";
import { DEFAULT_PASSWORD_COST } from "./auth/passwords.ts";
import { ConfigError, loadConfig } from "./config/index.ts";
import { checkReachable } from "./config/reachable.ts";
import { createFeed, type FeedSources } from "./feeds/index.ts";
import { ReplayFileError } from "./feeds/replay/replay-file.ts";
import { log } from "./log.ts";
import { dutiesFrom, startServer } from "./server.ts";

/**
 * Start-up notices are for the person starting the server. The first admin's one-time password
 * comes as a framed box: printed as it is, since a JSON log line would bury it in escapes.
 */
function notice(text: string): void {
  if (text.includes("\n")) process.stdout.write(`${text}\n`);
  else log.info(text);
}

async function main() {
  const config = loadConfig(process.env);
  if (config.passwordCost < DEFAULT_PASSWORD_COST)
    log.warn(
      `PASSWORD_HASH_COST=${config.passwordCost} is below the default ${DEFAULT_PASSWORD_COST}: passwords set now are cheaper to guess from a stolen database. It is meant for test runs.`,
    );
  // A stopped PostgreSQL or Redis (or a typo in its host) is one clear line, not endless retries.
  await checkReachable(config);
  const feed = (sources: FeedSources) => createFeed(config, dutiesFrom(config), sources);
  const server = await startServer({ config, feed, log: notice });
  // From now on V8 keeps the heap near what is live instead of letting the old generation grow to
  // a multiple of it: a first start's month of backfill (after this point) peaked at ~340 MB RSS
  // with ~60 MB live. Not before: the start itself (the statistics' windows read in) took 4.5–4.8
  // CPU seconds with it and 2.7–2.8 without, peaking at 190 MB, and the heap shrinks back once it
  // is set (docs/operations.md, "The first start"; BENCHMARKS.md §33).
  setFlagsFromString("--optimize-for-size");
  // Scripts (and tests) read the URL from this line: it ends at the space.
  log.info(`Spreadwatch listening on ${server.url} (feed: ${server.feed.name})`);

  // Never rejects: a close that fails is logged and the process still ends, with status 1.
  const stop = async (signal: string) => {
    log.info({ signal }, `${signal} received, shutting down`);
    try {
      await server.close();
    } catch (error) {
      log.error({ err: error }, "could not close everything cleanly");
      process.exit(1);
    }
    log.info("Spreadwatch stopped");
    process.exit(0);
  };
  process.once("SIGINT", () => void stop("SIGINT"));
  process.once("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((error: unknown) => {
  // Operator mistakes get one plain line on stderr, like a CLI; only the unexpected gets a stack.
  if (error instanceof ConfigError) {
    for (const problem of error.problems) console.error(`spreadwatch: ${problem}`);
  } else if (error instanceof ReplayFileError) {
    console.error(`spreadwatch: ${error.message}`);
  } else if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") {
    console.error(`spreadwatch: port already in use (${(error as Error).message})`);
  } else {
    log.fatal({ err: error }, "Spreadwatch failed to start");
  }
  process.exit(1);
});
