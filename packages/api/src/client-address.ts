import type { IncomingMessage } from "node:http";

/**
 * The address a request comes from, for per-address limits (logins, streams). Behind
 * `trustedProxies` reverse proxies the socket is the nearest proxy, so the client is the entry
 * that many places from the right of X-Forwarded-For (each proxy appends what it saw; anything
 * further left was written by the client and may be forged). Without trusted proxies the header
 * is ignored.
 */
export function clientAddress(
  req: Pick<IncomingMessage, "headers" | "socket">,
  trustedProxies: number,
): string {
  const socketAddress = req.socket.remoteAddress ?? "unknown";
  if (trustedProxies <= 0) return socketAddress;
  const header = req.headers["x-forwarded-for"];
  const hops = (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
  return hops[hops.length - trustedProxies] ?? hops[0] ?? socketAddress;
}
