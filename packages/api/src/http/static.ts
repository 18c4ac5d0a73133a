import { existsSync } from "node:fs";
import { join, sep } from "node:path";
import { type ServeStaticOptions, serveStatic } from "@hono/node-server/serve-static";
import { type Context, Hono, type MiddlewareHandler } from "hono";
import type { AppEnv } from "./env.ts";

const IMMUTABLE = "public, max-age=31536000, immutable";
const REVALIDATE = "no-cache";

/**
 * The build writes `.br` and `.gz` beside each text file (packages/web/scripts/precompress.ts);
 * serveStatic picks the one the browser's Accept-Encoding asks for. A Range request gets the
 * original bytes, so a range never splits a compressed stream.
 */
function precompressed(options: ServeStaticOptions<AppEnv>, cacheFor: (path: string) => string) {
  const onFound = (path: string, c: Context<AppEnv>) => {
    c.header("cache-control", cacheFor(path));
    // serveStatic says Vary only when it picked a compressed file; the original varies too, or a
    // shared cache could hand it to every browser.
    const encoded = c.res.headers.has("content-encoding");
    if (!encoded && (existsSync(`${path}.br`) || existsSync(`${path}.gz`)))
      c.header("vary", "Accept-Encoding", { append: true });
  };
  const compressed = serveStatic<AppEnv>({ ...options, precompressed: true, onFound });
  const identity = serveStatic<AppEnv>({ ...options, onFound });
  const handler: MiddlewareHandler<AppEnv> = (c, next) =>
    (c.req.header("range") ? identity : compressed)(c, next);
  return handler;
}

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
  const assets = join(webDist, "assets") + sep;
  app.get(
    "*",
    precompressed({ root: webDist }, (path) => (path.startsWith(assets) ? IMMUTABLE : REVALIDATE)),
  );
  // A hashed asset that is not there (a tab still open from the build before a deploy asks for
  // its old chunk) is a 404, never the HTML page parsed as a script.
  app.get("/assets/*", (c) => c.json({ error: "Not found" }, 404));
  app.get(
    "*",
    precompressed({ root: webDist, path: "index.html" }, () => REVALIDATE),
  );
  return app;
}
