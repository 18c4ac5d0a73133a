import { alertsRouter } from "./routers/alerts.ts";
import { authRouter } from "./routers/auth.ts";
import { backtestsRouter } from "./routers/backtests.ts";
import { chartRouter } from "./routers/chart.ts";
import { executionsRouter, liveOrdersRouter, profileKiteRouter } from "./routers/executions.ts";
import { healthRouter } from "./routers/health.ts";
import { historyRouter } from "./routers/history.ts";
import { instrumentsRouter } from "./routers/instruments.ts";
import { kiteRouter } from "./routers/kite.ts";
import { marketRouter } from "./routers/market.ts";
import { positionsRouter } from "./routers/positions.ts";
import { spreadsRouter } from "./routers/spreads.ts";
import { telegramRouter } from "./routers/telegram.ts";
import { usersRouter } from "./routers/users.ts";
import { webhookRouter } from "./routers/webhook.ts";
import { createCallerFactory, router } from "./trpc.ts";

export const appRouter = router({
  auth: authRouter,
  users: usersRouter,
  alerts: alertsRouter,
  telegram: telegramRouter,
  chart: chartRouter,
  market: marketRouter,
  instruments: instrumentsRouter,
  spreads: spreadsRouter,
  positions: positionsRouter,
  health: healthRouter,
  history: historyRouter,
  kite: kiteRouter,
  webhook: webhookRouter,
  backtests: backtestsRouter,
  executions: executionsRouter,
  profileKite: profileKiteRouter,
  liveOrders: liveOrdersRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
