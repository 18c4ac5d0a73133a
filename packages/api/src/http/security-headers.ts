import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env.ts";

/**
 * The hashes of index.html's inline scripts (the theme set before first paint), so the CSP can
 * allow exactly those and no other inline script. Read from the build that is being served.
 */
function inlineScriptHashes(webDist: string): string[] {
  const file = join(webDist, "index.html");
  if (!existsSync(file)) return [];
  const html = readFileSync(file, "utf8");
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
    const digest = createHash("sha256")
      .update(match[1] ?? "")
      .digest("base64");
    hashes.push(`'sha256-${digest}'`);
  }
  return hashes;
}

/**
 * The app loads everything from its own origin: scripts and styles from /assets, data over
 * fetch and EventSource, sounds from /sounds. React and uPlot style elements through the CSSOM,
 * which style-src does not restrict, so no 'unsafe-inline' is needed.
 */
function contentSecurityPolicy(webDist: string): string {
  return [
    "default-src 'self'",
    `script-src ${["'self'", ...inlineScriptHashes(webDist)].join(" ")}`,
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Sent on every response, including the snapshot stream that writes its own head. */
export function securityHeaders(webDist: string): Record<string, string> {
  return {
    "content-security-policy": contentSecurityPolicy(webDist),
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
  };
}

export function addSecurityHeaders(headers: Record<string, string>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  };
}
