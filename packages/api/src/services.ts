import { join } from "node:path";
import { type Duties, defaultDuties } from "@spreadwatch/core";
import { openStore } from "@spreadwatch/db";
import { AlertEngine } from "./alerts/engine.ts";
import { ensureFirstAdmin } from "./auth/first-admin.ts";
import { loadSessionSecret } from "./auth/session-secret.ts";
import { LoginThrottle } from "./auth/throttle.ts";
import type { Config } from "./config.ts";
import type { AppServices } from "./context.ts";
import type { Feed } from "./feeds/feed.ts";
import type { FeedMonitor } from "./feeds/providers/monitor.ts";
import { backfillIfEmpty } from "./history/backfill.ts";
import { HistoryRecorder } from "./history/recorder.ts";
import { warnEvery } from "./log.ts";
import { MarketHub } from "./market/hub.ts";
import { createNotifier } from "./telegram/notifier.ts";
import { OutboxSender } from "./telegram/outbox-sender.ts";

export const DATABASE_FILE = "spreadwatch.db";
const SESSION_SWEEP_MS = 60 * 60 * 1000;
/** Who claims Telegram outbox rows; one process on its own file keeps one name across restarts. */
const EMBEDDED_INSTANCE_ID = "embedded";

export function dutiesFrom(config: Config): Duties {
  return { ...defaultDuties(), ...config.duties };
}

/** The running parts of a server behind its HTTP port, and how to stop them in order. */
export interface Services extends AppServices {
  sender: OutboxSender | undefined;
  stop(): Promise<void>;
}

/** Ends idle sessions and forgets old end reasons. */
async function sweepSessions(services: AppServices): Promise<void> {
  const now = Date.now();
  await services.store.sessions.endIdleSince(now - services.auth.idleMs, now);
  await services.store.sessions.pruneEnds(now - services.auth.idleMs);
}

/** The hourly sweep failing (database busy) must not crash the server; the next one retries. */
async function sweepSessionsInBackground(services: AppServices): Promise<void> {
  try {
    await sweepSessions(services);
  } catch (error) {
    warnEvery("session-sweep", 60 * 60 * 1000, { err: error }, "could not sweep idle sessions");
  }
}

/**
 * Opens the database, makes the first admin if needed, backfills history for a feed that can
 * make some, and starts the background work — session sweeper, history recorder, alert engine
 * (all subscribed before the feed's first quote) and the Telegram sender.
 */
export async function startServices(
  config: Config,
  feed: Feed,
  log: (text: string) => void,
  feedMonitor: FeedMonitor,
): Promise<Services> {
  const store = await openStore(
    config.databaseUrl
      ? { kind: "postgres", url: config.databaseUrl }
      : { kind: "sqlite", file: join(config.dataDir, DATABASE_FILE) },
  );
  try {
    await ensureFirstAdmin(
      store,
      { username: config.adminUsername, password: config.adminPassword },
      log,
    );
  } catch (error) {
    await store.close();
    throw error;
  }
  const hub = new MarketHub(dutiesFrom(config));
  const shutdown = new AbortController();
  const notifier = createNotifier(config.telegram);
  const senderId = config.databaseUrl ? config.instanceId : EMBEDDED_INSTANCE_ID;
  const sender = notifier && new OutboxSender(store, notifier, senderId);
  const alertEngine = new AlertEngine(store, hub, () => sender?.wake());
  const recorder = new HistoryRecorder(store, hub, config.historyRetentionMs);
  const services: Services = {
    hub,
    store,
    auth: {
      password: loadSessionSecret(config.dataDir, config.sessionSecret),
      cookieSecure: config.cookieSecure,
      idleMs: config.sessionIdleMs,
    },
    loginThrottle: new LoginThrottle(store),
    alertEngine,
    recorder,
    notifier,
    sender,
    shutdownSignal: shutdown.signal,
    health: { feeds: () => feedMonitor.report(), startedAt: Date.now() },
    kite: { ...config.kite, dataDir: config.dataDir },
    async stop() {
      clearInterval(sweeper);
      await alertEngine.stop();
      await recorder.stop();
      shutdown.abort();
      await sender?.stop();
    },
  };
  await sweepSessions(services);
  const sweeper = setInterval(() => void sweepSessionsInBackground(services), SESSION_SWEEP_MS);
  sweeper.unref();
  await backfillIfEmpty(store, feed.history?.bind(feed), dutiesFrom(config), log);
  await recorder.start();
  await alertEngine.start();
  sender?.start();
  return services;
}
