import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { createApp } from "./app.ts";
import { compose, type Services } from "./composition.ts";
import type { Config } from "./config/index.ts";
import { openConfiguredStore } from "./database.ts";
import type { Feed } from "./feeds/feed.ts";
import type { FeedSources } from "./feeds/index.ts";
import { importKiteSessionFile, kiteSessionsIn } from "./feeds/providers/kite/session.ts";
import { FeedMonitor } from "./feeds/providers/monitor.ts";
import { createHttpServer } from "./http/node-server.ts";
import { LeaderRole } from "./leader/leader-role.ts";
import type { MarketHub } from "./market/hub.ts";
import { metricsEndpoint } from "./metrics/endpoint.ts";
import type { StreamFanout } from "./stream/stream-fanout.ts";

export { DATABASE_FILE, dutiesFrom } from "./composition.ts";
export const DEFAULT_WEB_DIST = fileURLToPath(new URL("../../web/dist", import.meta.url));

export interface ServerOptions {
  config: Config;
  /**
   * The feed, or how to make it from the store's sources (the Kite token lives in the database,
   * so a feed that needs it is made once the database is open).
   */
  feed: Feed | ((sources: FeedSources) => Feed);
  webDist?: string;
  /** Where start-up notices go (the first admin's password); the console by default. */
  log?: (text: string) => void;
}

export interface RunningServer {
  url: string;
  port: number;
  hub: MarketHub;
  services: Services;
  feed: Feed;
  /** The live stream (its fan-out processes: stream/stream-fanout.ts). */
  snapshots: StreamFanout;
  /** Stops the feed, ends subscriptions, closes the port and the database. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Pending connections the kernel queues for accept. Node's default (511) overflows when
 * thousands of browsers reconnect at once after a restart: the rest see SYN retries of 1 s, 3 s,
 * 7 s. The kernel caps it at net.core.somaxconn (4096 on current Linux).
 */
const LISTEN_BACKLOG = 16_384;

/** Opens the database, then makes the feed with what it reads from there. */
async function openStoreAndFeed(config: Config, feed: ServerOptions["feed"]) {
  const store = await openConfiguredStore(config);
  try {
    const kiteSessions = kiteSessionsIn(store);
    await importKiteSessionFile(kiteSessions, config.dataDir);
    return { store, feed: typeof feed === "function" ? feed({ kiteSessions }) : feed };
  } catch (error) {
    await store.close();
    throw error;
  }
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => {
      server.off("error", reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

function closeHttp(server: Server): Promise<void> {
  server.closeIdleConnections();
  return new Promise((resolve) => {
    server.close(() => resolve());
    // Streams end on the shutdown signal; anything still open after a moment is cut.
    setTimeout(() => server.closeAllConnections(), 1_000).unref();
  });
}

export async function startServer({
  config,
  feed: feedOption,
  webDist = DEFAULT_WEB_DIST,
  log = console.log,
}: ServerOptions): Promise<RunningServer> {
  const { store, feed } = await openStoreAndFeed(config, feedOption);
  const monitor = new FeedMonitor(feed);
  const { services, snapshots, leaderWork, stop } = await compose({
    config,
    store,
    feed,
    monitor,
    notice: log,
  });
  const leader = new LeaderRole(config, leaderWork);
  services.instance.isLeader = () => leader.isLeader;
  const app = createApp({
    services,
    webDist,
    snapshots,
    trustedProxies: config.trustedProxies,
    metrics: metricsEndpoint(config.metricsToken, { services, snapshots, monitor }),
  });
  const server = createHttpServer(app);
  let address: AddressInfo;
  try {
    await leader.begin();
    address = await listen(server, config.port, config.host);
  } catch (error) {
    await leader.end();
    await stop();
    await services.store.close();
    throw error;
  }
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      await leader.end();
      await stop();
      await closeHttp(server);
      await services.store.close();
    })();
    return closing;
  };
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    snapshots,
    hub: services.hub,
    services,
    feed,
    close,
  };
}
