import { get } from "node:http";
import { createGunzip } from "node:zlib";
import type { MarketSnapshot } from "../src/market/hub.ts";
import type { MarketStreamMessage } from "../src/stream/delta.ts";
import { applyMessage, dataEvents } from "./stream-state.ts";

export const STREAM_PATH = "/api/trpc/market.onSnapshot";

/** The stream's path with a selection as httpSubscriptionLink sends it: `?input=<JSON>`. */
export const withInput = (input: unknown) =>
  `${STREAM_PATH}?input=${encodeURIComponent(JSON.stringify(input))}`;

export interface RawStreamOptions {
  /** `STREAM_PATH` unless given (e.g. `withInput(...)`). */
  path?: string;
  /** Ask for gzip as a browser does; the body is decoded here either way. */
  gzip?: boolean;
  /** A signed-in client's cookie header, sent as a browser would. */
  cookie?: string | undefined;
}

/**
 * A raw SSE reader of `market.onSnapshot`: every byte of the decoded body, the `data:` messages in
 * order and the state they build, and what came over the socket. `destroy` ends it.
 */
export function openRawStream(url: string, options: RawStreamOptions = {}) {
  let text = "";
  let wireBytes = 0;
  let encoding: string | undefined;
  let ended = false;
  const headers: Record<string, string> = {};
  if (options.cookie) headers.cookie = options.cookie;
  if (options.gzip) headers["accept-encoding"] = "gzip, deflate, br";
  const request = get(`${url}${options.path ?? STREAM_PATH}`, { agent: false, headers }, (res) => {
    encoding = res.headers["content-encoding"];
    res.on("close", () => {
      ended = true;
    });
    res.on("data", (chunk: Buffer) => {
      wireBytes += chunk.length;
    });
    const decoded = encoding === "gzip" ? res.pipe(createGunzip()) : res;
    decoded.setEncoding("utf8");
    decoded.on("data", (chunk: string) => {
      text += chunk;
    });
    decoded.on("error", () => {});
  });
  request.on("error", () => {});
  const frames = () => dataEvents(text);
  const messages = () => frames().map((json) => JSON.parse(json) as MarketStreamMessage);
  const state = () => messages().reduce<MarketSnapshot | undefined>(applyMessage, undefined);
  return {
    text: () => text,
    frames,
    messages,
    state,
    wireBytes: () => wireBytes,
    encoding: () => encoding,
    /** The server ended the response (or the connection went). */
    ended: () => ended,
    destroy: () => request.destroy(),
  };
}
