import { join } from "node:path";
import { type Duties, defaultDuties } from "@spreadwatch/core";
import {
  type DatabaseHandle,
  deleteSessionsIdleSince,
  openDatabase,
  pruneSessionEnds,
} from "@spreadwatch/db";
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
import { SpreadStatsService } from "./stats/spread-stats-service.ts";
import { storedCloses } from "./stats/stored-closes.ts";
import { createNotifier } from "./telegram/notifier.ts";
import { OutboxSender } from "./telegram/outbox-sender.ts";

export const DATABASE_FILE = "spreadwatch.db";
const SESSION_SWEEP_MS = 60 * 60 * 1000;

export function dutiesFrom(config: Config): Duties {
  return { ...defaultDuties(), ...config.duties };
}

/** The running parts of a server behind its HTTP port, and how to stop them in order. */
export interface Services extends AppServices {
  database: DatabaseHandle;
  sender: OutboxSender | undefined;
  stop(): Promise<void>;
}

/** Ends idle sessions and forgets old end reasons. */
function sweepSessions(services: AppServices): void {
  const now = Date.now();
  deleteSessionsIdleSince(services.db, now - services.auth.idleMs, now);
  pruneSessionEnds(services.db, now - services.auth.idleMs);
}

/** The hourly sweep failing (database busy) must not crash the server; the next one retries. */
function sweepSessionsInBackground(services: AppServices): void {
  try {
    sweepSessions(services);
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
  const database = openDatabase(join(config.dataDir, DATABASE_FILE));
  try {
    await ensureFirstAdmin(
      database.db,
      { username: config.adminUsername, password: config.adminPassword },
      log,
    );
  } catch (error) {
    database.close();
    throw error;
  }
  const hub = new MarketHub(dutiesFrom(config), config.costRates);
  const shutdown = new AbortController();
  const notifier = createNotifier(config.telegram);
  const sender = notifier && new OutboxSender(database.db, notifier);
  const alertEngine = new AlertEngine(database.db, hub, () => sender?.wake());
  const stats = new SpreadStatsService(storedCloses(database.db, () => recorder.writePending()));
  const recorder = new HistoryRecorder(database.db, hub, config.historyRetentionMs, (symbol, c) =>
    stats.minuteClosed(symbol, c.timestamp, c.close),
  );
  const services: Services = {
    hub,
    db: database.db,
    database,
    auth: {
      password: loadSessionSecret(config.dataDir, config.sessionSecret),
      cookieSecure: config.cookieSecure,
      idleMs: config.sessionIdleMs,
    },
    loginThrottle: new LoginThrottle(database.db),
    alertEngine,
    recorder,
    stats,
    notifier,
    sender,
    shutdownSignal: shutdown.signal,
    health: { feeds: () => feedMonitor.report(), startedAt: Date.now() },
    kite: { ...config.kite, dataDir: config.dataDir },
    async stop() {
      clearInterval(sweeper);
      alertEngine.stop();
      recorder.stop();
      shutdown.abort();
      await sender?.stop();
    },
  };
  sweepSessions(services);
  const sweeper = setInterval(() => sweepSessionsInBackground(services), SESSION_SWEEP_MS);
  sweeper.unref();
  backfillIfEmpty(database.db, feed.history?.bind(feed), dutiesFrom(config), log);
  await stats.start();
  recorder.start();
  alertEngine.start();
  sender?.start();
  return services;
}
