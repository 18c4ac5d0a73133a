import { ConfigError, loadConfig } from "./config.ts";
import { createFeed } from "./feeds/index.ts";
import { ReplayFileError } from "./feeds/replay-file.ts";
import { dutiesFrom, startServer } from "./server.ts";

async function main() {
  const config = loadConfig(process.env);
  const feed = createFeed(config, dutiesFrom(config));
  const server = await startServer({ config, feed });
  console.log(`Spreadwatch listening on ${server.url} (feed: ${feed.name})`);

  const stop = async (signal: string) => {
    console.log(`${signal} received, shutting down`);
    await server.close();
    process.exit(0);
  };
  process.once("SIGINT", () => void stop("SIGINT"));
  process.once("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((error: unknown) => {
  // Operator mistakes get one line; only the unexpected gets a stack trace.
  if (error instanceof ConfigError || error instanceof ReplayFileError) {
    console.error(`spreadwatch: ${error.message}`);
  } else if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") {
    console.error(`spreadwatch: port already in use (${(error as Error).message})`);
  } else {
    console.error("spreadwatch: failed to start:", error);
  }
  process.exit(1);
});
