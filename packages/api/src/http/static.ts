import { existsSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import sirv from "sirv";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Serves the built web app; unknown paths get index.html so client-side routes survive a reload.
 * Hashed assets are immutable and cached for a year; index.html is always revalidated.
 */
export function createStaticHandler(webDist: string): Handler {
  if (!existsSync(join(webDist, "index.html"))) {
    return (_req, res) => {
      res.writeHead(503, { "content-type": "text/plain; charset=utf-8" });
      res.end(`The web app is not built (${webDist} has no index.html). Run: pnpm build`);
    };
  }
  const serve = sirv(webDist, {
    single: true,
    etag: true,
    setHeaders(res, pathname) {
      if (pathname.startsWith("/assets/")) {
        res.setHeader("cache-control", "public, max-age=31536000, immutable");
      } else {
        res.setHeader("cache-control", "no-cache");
      }
    },
  });
  return (req, res) => serve(req, res);
}
