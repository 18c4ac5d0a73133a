import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Duties, defaultDuties } from "@spreadwatch/core";
import { openDatabase } from "@spreadwatch/db";
import type { Config } from "./config.ts";
import type { AppServices } from "./context.ts";
import type { Feed } from "./feeds/feed.ts";
import { createAppHandler } from "./http/app-handler.ts";
import { MarketHub } from "./market/hub.ts";

export const DEFAULT_WEB_DIST = fileURLToPath(new URL("../../web/dist", import.meta.url));

export const DATABASE_FILE = "spreadwatch.db";

export interface ServerOptions {
  config: Config;
  feed: Feed;
  webDist?: string;
}

export interface RunningServer {
  url: string;
  port: number;
  hub: MarketHub;
  services: AppServices;
  /** Stops the feed, ends subscriptions and closes the port. Safe to call twice. */
  close(): Promise<void>;
}

export function dutiesFrom(config: Config): Duties {
  return { ...defaultDuties(), ...config.duties };
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

export async function startServer({
  config,
  feed,
  webDist = DEFAULT_WEB_DIST,
}: ServerOptions): Promise<RunningServer> {
  const database = openDatabase(join(config.dataDir, DATABASE_FILE));
  const hub = new MarketHub(dutiesFrom(config));
  const shutdown = new AbortController();
  const services: AppServices = { hub, db: database.db, shutdownSignal: shutdown.signal };

  try {
    await feed.start((quote) => hub.ingest(quote));
  } catch (error) {
    database.close();
    throw error;
  }
  const server = createServer(createAppHandler(services, webDist));
  // Long-lived SSE responses must not be cut by Node's default request timeout.
  server.requestTimeout = 0;
  let address: AddressInfo;
  try {
    address = await listen(server, config.port, config.host);
  } catch (error) {
    await feed.stop();
    database.close();
    throw error;
  }
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      await feed.stop();
      shutdown.abort();
      server.closeIdleConnections();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Streams end on the abort above; anything still open after a moment is cut.
        setTimeout(() => server.closeAllConnections(), 1_000).unref();
      });
      database.close();
    })();
    return closing;
  };

  return { url, port: address.port, hub, services, close };
}
