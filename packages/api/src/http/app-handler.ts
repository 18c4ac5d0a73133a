import type { IncomingMessage, ServerResponse } from "node:http";
import { createHTTPHandler } from "@trpc/server/adapters/standalone";
import { type AppServices, createContext } from "../context.ts";
import type { SnapshotBroadcaster } from "../market/snapshot-broadcaster.ts";
import { handleRest, sendJson } from "../rest/adapter.ts";
import { appRouter } from "../router.ts";
import { createStaticHandler } from "./static.ts";

export const TRPC_BASE_PATH = "/api/trpc";
const SNAPSHOT_STREAM_PATH = `${TRPC_BASE_PATH}/market.onSnapshot`;

/** One port: tRPC under /api/trpc, the spec's REST paths under /api, the web app elsewhere. */
export function createAppHandler(
  services: AppServices,
  webDist: string,
  snapshots: SnapshotBroadcaster,
) {
  const trpc = createHTTPHandler({
    router: appRouter,
    basePath: `${TRPC_BASE_PATH}/`,
    createContext: ({ req, res }) => createContext(services, req, res),
    onError: ({ error, path }) => {
      if (error.code === "INTERNAL_SERVER_ERROR")
        console.error(`tRPC ${path ?? "?"} failed:`, error.cause ?? error);
    },
  });
  const serveStatic = createStaticHandler(webDist);

  return (req: IncomingMessage, res: ServerResponse) => {
    res.setHeader("x-content-type-options", "nosniff");
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname === SNAPSHOT_STREAM_PATH && req.method === "GET") {
      snapshots.handle(req, res);
    } else if (url.pathname === TRPC_BASE_PATH || url.pathname.startsWith(`${TRPC_BASE_PATH}/`)) {
      trpc(req, res);
    } else if (url.pathname === "/api" || url.pathname.startsWith("/api/")) {
      handleRest(services, req, res, url).catch((error) => {
        console.error("REST handler failed:", error);
        if (!res.headersSent) sendJson(res, 500, { error: "Internal server error" });
        else res.destroy();
      });
    } else {
      serveStatic(req, res);
    }
  };
}
