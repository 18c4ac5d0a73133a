import { marketRouter } from "./routers/market.ts";
import { createCallerFactory, router } from "./trpc.ts";

export const appRouter = router({
  market: marketRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
