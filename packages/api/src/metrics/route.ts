import { createHash, timingSafeEqual } from "node:crypto";
import { Hono } from "hono";
import type { Registry } from "prom-client";
import type { AppEnv } from "../http/env.ts";
import { errorBody } from "../http/errors.ts";

export const METRICS_PATH = "/metrics";

export interface MetricsEndpoint {
  /** METRICS_TOKEN: what `Authorization: Bearer …` must carry. */
  token: string;
  registry: Registry;
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * Whether the request carries the token. Both sides are hashed first, so the comparison takes
 * the same time whatever the guess, its length included.
 */
function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const presented = /^Bearer +(\S+) *$/i.exec(header ?? "")?.[1];
  const same = timingSafeEqual(digest(presented ?? ""), expected);
  return presented !== undefined && same;
}

/**
 * GET /metrics in Prometheus' text format, for a scraper holding METRICS_TOKEN; anyone else gets
 * a 401 before anything is collected.
 */
export function metricsRoute({ token, registry }: MetricsEndpoint): Hono<AppEnv> {
  const expected = digest(token);
  const app = new Hono<AppEnv>({ strict: false });
  app.get(METRICS_PATH, async (c) => {
    if (!bearerMatches(c.req.header("authorization"), expected)) {
      return errorBody(
        401,
        "Metrics need the header Authorization: Bearer <METRICS_TOKEN>",
        {},
        { "www-authenticate": 'Bearer realm="metrics"' },
      );
    }
    return new Response(await registry.metrics(), {
      headers: { "content-type": registry.contentType, "cache-control": "no-store" },
    });
  });
  app.all(METRICS_PATH, (c) =>
    errorBody(405, `${c.req.method} is not allowed on ${METRICS_PATH}`, {}, { allow: "GET, HEAD" }),
  );
  return app;
}
