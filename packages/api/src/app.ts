import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import { Hono } from "hono";
import { clientAddress } from "./client-address.ts";
import { type AppServices, createContext } from "./context.ts";
import type { AppEnv, ContextFactory } from "./http/env.ts";
import { logRequestErrors, notFound, onAppError } from "./http/errors.ts";
import { limitBody, limitHeaderCount, refuseCrossSiteWrites } from "./http/security.ts";
import { addSecurityHeaders, securityHeaders } from "./http/security-headers.ts";
import { staticFiles } from "./http/static.ts";
import { TRPC_BASE_PATH, trpcHandler } from "./http/trpc.ts";
import { marketViewer } from "./market/viewer.ts";
import { METRICS_PATH, type MetricsEndpoint, metricsRoute } from "./metrics/route.ts";
import { restRoutes } from "./rest/adapter.ts";
import type { LiveStream } from "./stream/stream-fanout.ts";
import { streamSelection } from "./stream/stream-selection-input.ts";

const SNAPSHOT_STREAM_PATH = `${TRPC_BASE_PATH}/market.onSnapshot`;

export interface AppOptions {
  services: AppServices;
  webDist: string;
  snapshots: LiveStream;
  /** How many reverse proxies append to X-Forwarded-For (config.trustedProxies). */
  trustedProxies: number;
  /** Set when METRICS_TOKEN is: GET /metrics for Prometheus. */
  metrics?: MetricsEndpoint | undefined;
}

/**
 * One port: tRPC under /api/trpc, the spec's REST paths under /api, the web app elsewhere. The
 * edge rules (security headers, header count, cross-site writes, JSON bodies, body size, JSON
 * errors, one log line per failed request) are declared here once for every path.
 */
export function createApp({ services, webDist, snapshots, trustedProxies, metrics }: AppOptions) {
  const headers = securityHeaders(webDist);
  const context: ContextFactory = (c, resHeaders) =>
    createContext(services, {
      headers: c.req.raw.headers,
      resHeaders,
      address: clientAddress(c.env.incoming, trustedProxies),
    });

  const app = new Hono<AppEnv>({ strict: false });
  app.onError(onAppError);
  app.notFound(notFound);

  // The live stream writes its frames straight to the socket (one serialisation for every
  // client), so it takes Node's response before any middleware wraps a Response.
  app.get(SNAPSHOT_STREAM_PATH, async (c) => {
    // hono answers HEAD with the GET route: say what the stream is without opening one.
    if (c.req.method === "HEAD")
      return new Response(null, { headers: { ...headers, "content-type": "text/event-stream" } });
    // Whose private spreads the stream also carries (docs/user-guide.md "Spreads of your own").
    const viewer = await marketViewer(context(c, new Headers()));
    // What the client's screens show (docs/http-api.md, "Live stream"): refused whole when bad.
    const selection = streamSelection(c.req.query("input"), services, viewer);
    if (typeof selection === "string")
      return c.json({ error: selection }, 400, { ...headers, "cache-control": "no-store" });
    for (const [name, value] of Object.entries(headers)) c.env.outgoing.setHeader(name, value);
    snapshots.handle(c.env.incoming, c.env.outgoing, viewer, selection);
    return RESPONSE_ALREADY_SENT;
  });

  app.use(logRequestErrors, addSecurityHeaders(headers), limitHeaderCount);
  app.use(refuseCrossSiteWrites(trustedProxies));
  app.use("/api/*", limitBody);
  app.all(`${TRPC_BASE_PATH}/*`, trpcHandler(context));
  app.route("/", restRoutes(context));
  app.all("/api", notFound);
  app.all("/api/*", notFound);
  // Off unless configured, and then never served as the web app's page either.
  if (metrics) app.route("/", metricsRoute(metrics));
  else app.all(METRICS_PATH, notFound);
  app.route("/", staticFiles(webDist));
  return app;
}
