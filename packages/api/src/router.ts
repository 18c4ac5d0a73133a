import { authRouter } from "./routers/auth.ts";
import { marketRouter } from "./routers/market.ts";
import { usersRouter } from "./routers/users.ts";
import { createCallerFactory, router } from "./trpc.ts";

export const appRouter = router({
  auth: authRouter,
  users: usersRouter,
  market: marketRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
