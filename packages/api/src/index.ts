// Clients (the web app) see only types; server code stays on the server.
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "./router.ts";

export type { MarketSnapshot } from "./market/hub.ts";
export type { AppRouter } from "./router.ts";
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;
