import type { IncomingMessage, ServerResponse } from "node:http";
import type { Database } from "@spreadwatch/db";
import type { AlertEngine } from "./alerts/engine.ts";
import type { AuthSettings, SessionState } from "./auth/session.ts";
import type { LoginThrottle } from "./auth/throttle.ts";
import type { KiteSettings } from "./config.ts";
import type { FeedHealthReport } from "./feeds/providers/monitor.ts";
import type { HistoryRecorder } from "./history/recorder.ts";
import type { MarketHub } from "./market/hub.ts";
import type { TelegramNotifier } from "./telegram/notifier.ts";

/** Long-lived parts of a running server, shared by every request. */
export interface AppServices {
  hub: MarketHub;
  db: Database;
  auth: AuthSettings;
  loginThrottle: LoginThrottle;
  alertEngine: AlertEngine;
  recorder: HistoryRecorder;
  /** Undefined when TELEGRAM_BOT_TOKEN is not set. */
  notifier: TelegramNotifier | undefined;
  /** Aborted at shutdown so open subscriptions end and their connections close. */
  shutdownSignal: AbortSignal;
  /** What /api/health reports about the feed, and since when the server runs. */
  health: { feeds: () => FeedHealthReport; startedAt: number };
  /** Kite Connect login settings; the day's access token is stored in `dataDir`. */
  kite: KiteSettings & { dataDir: string };
}

export interface Context {
  services: AppServices;
  req?: IncomingMessage;
  res?: ServerResponse;
  /** Filled on first use by resolveSession, so a request reads its cookie once. */
  sessionState?: Promise<SessionState> | undefined;
}

/** Context without a request: what tests and the REST adapter's caller start from. */
export function createContextInner(services: AppServices): Context {
  return { services };
}

export function createContext(
  services: AppServices,
  req: IncomingMessage,
  res: ServerResponse,
): Context {
  return { ...createContextInner(services), req, res };
}
