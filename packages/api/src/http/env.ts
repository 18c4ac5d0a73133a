import type { HttpBindings } from "@hono/node-server";

/** What every handler of the app can reach: Node's request/response, and per-request variables. */
export interface AppEnv {
  Bindings: HttpBindings;
  Variables: {
    /** The error behind a 5xx, logged once by logRequestErrors. */
    failure?: unknown;
  };
}
