import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Duties, defaultDuties } from "@spreadwatch/core";
import { deleteSessionsIdleSince, openDatabase, pruneSessionEnds } from "@spreadwatch/db";
import { ensureFirstAdmin } from "./auth/first-admin.ts";
import { loadSessionSecret } from "./auth/session-secret.ts";
import { LoginThrottle } from "./auth/throttle.ts";
import type { Config } from "./config.ts";
import type { AppServices } from "./context.ts";
import type { Feed } from "./feeds/feed.ts";
import { createAppHandler } from "./http/app-handler.ts";
import { MarketHub } from "./market/hub.ts";

export const DEFAULT_WEB_DIST = fileURLToPath(new URL("../../web/dist", import.meta.url));

export const DATABASE_FILE = "spreadwatch.db";

const SESSION_SWEEP_MS = 60 * 60 * 1000;

export interface ServerOptions {
  config: Config;
  feed: Feed;
  webDist?: string;
  /** Where start-up notices go (the first admin's password); the console by default. */
  log?: (text: string) => void;
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

/** Ends idle sessions and forgets old end reasons, in the background. */
function sweepSessions(services: AppServices): void {
  const now = Date.now();
  deleteSessionsIdleSince(services.db, now - services.auth.idleMs, now);
  pruneSessionEnds(services.db, now - services.auth.idleMs);
}

export async function startServer({
  config,
  feed,
  webDist = DEFAULT_WEB_DIST,
  log = console.log,
}: ServerOptions): Promise<RunningServer> {
  const database = openDatabase(join(config.dataDir, DATABASE_FILE));
  const hub = new MarketHub(dutiesFrom(config));
  const shutdown = new AbortController();
  const services: AppServices = {
    hub,
    db: database.db,
    auth: {
      password: loadSessionSecret(config.dataDir, config.sessionSecret),
      cookieSecure: config.cookieSecure,
      idleMs: config.sessionIdleMs,
    },
    loginThrottle: new LoginThrottle(),
    shutdownSignal: shutdown.signal,
  };

  try {
    const admin = { username: config.adminUsername, password: config.adminPassword };
    await ensureFirstAdmin(database.db, admin, log);
    sweepSessions(services);
    await feed.start((quote) => hub.ingest(quote));
  } catch (error) {
    database.close();
    throw error;
  }
  const sweeper = setInterval(() => sweepSessions(services), SESSION_SWEEP_MS);
  sweeper.unref();
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
      clearInterval(sweeper);
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
