import { createServer, type Server } from "node:http";
import { getRequestListener } from "@hono/node-server";
import type { Hono } from "hono";
import type { AppEnv } from "./env.ts";
import { answerClientError, invalidRequest } from "./errors.ts";

export const REQUEST_TIMEOUT_MS = 30_000;
export const HEADERS_TIMEOUT_MS = 20_000;

/**
 * A Node HTTP server around the app. Both kinds of malformed request end as a JSON error and
 * never as a thrown exception: what Node's parser rejects (clientError) and what it accepts but
 * no URL can be made of (the adapter's errorHandler).
 */
export function createHttpServer(app: Hono<AppEnv>): Server {
  const server = createServer(getRequestListener(app.fetch, { errorHandler: invalidRequest }));
  server.on("clientError", answerClientError);
  // Long-lived SSE responses must not be cut by Node's default request timeout.
  server.requestTimeout = 0;
  return server;
}
