import { existsSync } from "node:fs";
import { join } from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import type { AppEnv } from "./env.ts";

const IMMUTABLE = "public, max-age=31536000, immutable";
const REVALIDATE = "no-cache";

/**
 * Serves the built web app; unknown paths get index.html so client-side routes survive a reload.
 * Hashed assets are immutable and cached for a year; everything else is always revalidated.
 */
export function staticFiles(webDist: string): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  if (!existsSync(join(webDist, "index.html"))) {
    app.get("*", (c) =>
      c.text(`The web app is not built (${webDist} has no index.html). Run: pnpm build`, 503),
    );
    return app;
  }
  const cacheFor = (path: string) =>
    path.startsWith(join(webDist, "assets")) ? IMMUTABLE : REVALIDATE;
  app.get(
    "*",
    serveStatic({ root: webDist, onFound: (path, c) => c.header("cache-control", cacheFor(path)) }),
  );
  app.get(
    "*",
    serveStatic({
      root: webDist,
      path: "index.html",
      onFound: (_path, c) => c.header("cache-control", REVALIDATE),
    }),
  );
  return app;
}
