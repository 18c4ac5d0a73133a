import type { HttpBindings } from "@hono/node-server";
import type { Context as HonoContext } from "hono";
import type { Context } from "../context.ts";

/** What every handler of the app can reach: Node's request/response, and per-request variables. */
export interface AppEnv {
  Bindings: HttpBindings;
  Variables: {
    /** The error behind a 5xx, logged once by logRequestErrors. */
    failure?: unknown;
  };
}

/** Builds a request's tRPC context; `resHeaders` collects what the procedure adds (cookies). */
export type ContextFactory = (c: HonoContext<AppEnv>, resHeaders: Headers) => Context;
