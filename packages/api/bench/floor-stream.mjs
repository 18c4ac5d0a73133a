// What the gzip floors (shared-floor-gzip.mjs, same-frames-floor.mjs) share: a deflate segment
// made as the project makes its own (src/stream/stream-encoding.ts), and the start of an event
// stream in gzip for a client that asks for it, in plain text for one that does not.
import { constants, deflateRawSync } from "node:zlib";

/** A gzip member header; its trailer never comes, as the project's. */
export const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/** `plain` as one sync-flushed deflate segment, against `dictionary` when given. */
export function pack(plain, dictionary) {
  return deflateRawSync(plain, {
    finishFlush: constants.Z_SYNC_FLUSH,
    ...(dictionary && { dictionary }),
  });
}

/** Answers 200 with an event stream and its first event; true when it is gzip. */
export function openEventStream(req, res) {
  const gzip = /\bgzip\b/.test(req.headers["accept-encoding"] ?? "");
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    ...(gzip && { "content-encoding": "gzip" }),
  });
  const hello = Buffer.from("event: connected\ndata: {}\n\n");
  res.write(gzip ? Buffer.concat([GZIP_HEADER, pack(hello)]) : hello);
  return gzip;
}
