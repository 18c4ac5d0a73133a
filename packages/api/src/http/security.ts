import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "./env.ts";
import { errorBody } from "./errors.ts";

/** Largest request body any path accepts: a login or an alert is well under a kilobyte. */
export const MAX_BODY_BYTES = 64 * 1024;
/** Node keeps at most 2,000 headers and drops the rest silently; we refuse long before that. */
export const MAX_HEADER_COUNT = 200;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** 413 from the Content-Length alone, or as soon as a chunked body passes the limit. */
export const limitBody: MiddlewareHandler<AppEnv> = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  // `connection: close` so the client stops sending what we will not read.
  onError: () =>
    errorBody(
      413,
      `Request body is too large (at most ${MAX_BODY_BYTES / 1024} kB)`,
      {},
      {
        connection: "close",
      },
    ),
});

export const limitHeaderCount: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.env.incoming.rawHeaders.length / 2 > MAX_HEADER_COUNT)
    return errorBody(431, `Too many request headers (at most ${MAX_HEADER_COUNT})`);
  return next();
};

/** The hosts this server answers as: Host, and X-Forwarded-Host when behind a trusted proxy. */
function ownHosts(headers: Headers, trustedProxies: number, protocol: string): string[] {
  const names = [headers.get("host")];
  if (trustedProxies > 0)
    names.push(headers.get("x-forwarded-host")?.split(",")[0]?.trim() ?? null);
  const hosts: string[] = [];
  for (const name of names) {
    if (!name) continue;
    try {
      hosts.push(new URL(`${protocol}//${name}`).host);
    } catch {
      // An unparsable Host matches no Origin.
    }
  }
  return hosts;
}

/**
 * A browser names the page that sent a request in Origin (on every POST, PUT, DELETE) and says
 * whether it is another site in Sec-Fetch-Site. Either pointing elsewhere means a page on another
 * site is using the visitor's cookie. Scripts (curl) send neither and are not affected.
 */
export function isCrossSite(headers: Headers, trustedProxies: number): boolean {
  if (headers.get("sec-fetch-site") === "cross-site") return true;
  const origin = headers.get("origin");
  if (origin === null) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return true; // "null" (sandboxed frames, file://) and garbage are not us.
  }
  return !ownHosts(headers, trustedProxies, url.protocol).includes(url.host);
}

/** JSON, or no body at all (a bare POST such as logout). text/plain is how forms cross sites. */
function bodyIsJsonOrAbsent(headers: Headers): boolean {
  const type = headers.get("content-type");
  if (type === null)
    return !headers.has("transfer-encoding") && !(Number(headers.get("content-length")) > 0);
  return /^application\/json\s*(;|$)/i.test(type);
}

/** Writes from another site get 403 and change nothing; write bodies must be JSON (415). */
export function refuseCrossSiteWrites(trustedProxies: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const { headers } = c.req.raw;
    if (isCrossSite(headers, trustedProxies))
      return errorBody(403, "Requests from other sites may not change anything here");
    if (!bodyIsJsonOrAbsent(headers))
      return errorBody(415, "Request bodies must be JSON (content-type: application/json)");
    return next();
  };
}
