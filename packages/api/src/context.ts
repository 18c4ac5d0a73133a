import type { Store } from "@spreadwatch/db";
import type { AlertEngine } from "./alerts/engine.ts";
import type { AuthSettings, RequestInfo, SessionState } from "./auth/session.ts";
import type { LoginThrottle } from "./auth/throttle.ts";
import type { Bus } from "./bus/index.ts";
import type { KiteSettings } from "./config/index.ts";
import type { ExecutionEngine } from "./executions/engine.ts";
import type { FeedHealthReport } from "./feeds/providers/monitor.ts";
import type { HistoryLoading, historyHealth, InstrumentCoverage } from "./history/coverage.ts";
import type { HistoryRecorder } from "./history/recorder.ts";
import type { InstrumentCatalogue } from "./instruments/catalogue.ts";
import type { MarketHub } from "./market/hub.ts";
import type { PositionsService } from "./positions/service.ts";
import type { SpreadRegistry } from "./spreads/registry.ts";
import type { SpreadStatsService } from "./stats/spread-stats-service.ts";
import type { TelegramNotifier } from "./telegram/notifier.ts";
import type { Webhooks } from "./webhooks/webhooks.ts";

/** Long-lived parts of a running server, shared by every request. */
export interface AppServices {
  hub: MarketHub;
  /**
   * The instruments in use: the fifteen built-in and those admins added (docs/user-guide.md
   * "Instruments").
   */
  instruments: InstrumentCatalogue;
  /** Every spread definition: the built-ins and the users' own (docs/formulas.md). */
  spreads: SpreadRegistry;
  /**
   * Users' spread positions (docs/http-api.md "Positions API (paper)"), and the index position
   * alerts read.
   */
  positions: PositionsService;
  /** All stored data, through the async port (SQLite embedded, or PostgreSQL). */
  store: Store;
  /** Quotes and events between instances (in-process when embedded). */
  bus: Bus;
  /** For /api/health: which instance answered, and whether it leads now. */
  instance: { id: string; isLeader: () => boolean };
  auth: AuthSettings;
  loginThrottle: LoginThrottle;
  alertEngine: AlertEngine;
  recorder: HistoryRecorder;
  /**
   * Rolling statistics of every chart symbol's 1-minute closes (docs/formulas.md, "Statistics").
   */
  stats: SpreadStatsService;
  /** Undefined when TELEGRAM_BOT_TOKEN is not set. */
  notifier: TelegramNotifier | undefined;
  /** The webhook URL guard and signed POST (docs/user-guide.md, "Webhooks"). */
  webhooks: Webhooks;
  /** Aborted at shutdown so open subscriptions end and their connections close. */
  shutdownSignal: AbortSignal;
  /** What /api/health reports about the feed, and since when the server runs. */
  health: { feeds: () => FeedHealthReport; startedAt: number };
  /** The providers' past (docs/market-data.md, "The past from the providers"). */
  history: HistoryService;
  /** Kite Connect login settings; the day's access token is in the store (kite.session). */
  kite: KiteSettings;
  /** Live-order campaigns (docs/user-guide.md "Live orders"): worked on the leader; `wake` looks at once. */
  executions: Pick<ExecutionEngine, "wake">;
}

/** What every instance answers about the fetched past; fetching itself is the leader's. */
export interface HistoryService {
  coverage(): Promise<InstrumentCoverage[]>;
  health(): ReturnType<typeof historyHealth>;
  /** Whose past is on the way, for the statistics' `coverage.loading`. */
  loading(): Promise<HistoryLoading>;
  /** Asks the leader (over the bus) to fetch these keys' whole window again; all when null. */
  fetchAgain(keys: string[] | null): Promise<void>;
}

export interface Context {
  services: AppServices;
  /** Absent for in-process callers (tests, createCaller without a request). */
  http?: RequestInfo;
  /** Filled on first use by resolveSession, so a request reads its cookie once. */
  sessionState?: Promise<SessionState> | undefined;
}

/** Context without a request: what tests start from. */
export function createContextInner(services: AppServices): Context {
  return { services };
}

export function createContext(services: AppServices, http: RequestInfo): Context {
  return { ...createContextInner(services), http };
}

export type { RequestInfo };
