import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { RequestError } from "@hono/node-server";
import { TRPCError } from "@trpc/server";
import type { Context, MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import { ErrorWithFields } from "../errors.ts";
import { log, warnEvery } from "../log.ts";
import type { AppEnv } from "./env.ts";

/** Every error the edge writes: JSON `{ error }` (plus any extra fields), never cached. */
export function errorBody(
  status: number,
  message: string,
  fields: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ ...fields, error: message }), {
    status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      ...headers,
    },
  });
}

/** hono's own refusals (HTTPException) keep their status; anything else is a 500 without details. */
export function onAppError(error: Error, c: Context<AppEnv>): Response {
  if (error instanceof HTTPException && error.status < 500) {
    return errorBody(error.status, error.message || STATUS_CODES[error.status] || "Bad request");
  }
  // The client hung up while sending its body: its doing, and nobody is left to answer.
  const incoming = c.env?.incoming;
  if (incoming?.errored || incoming?.destroyed)
    return errorBody(400, "The request body did not arrive");
  c.set("failure", error);
  return errorBody(500, "Internal server error");
}

export function notFound(c: Context<AppEnv>): Response {
  const { path } = c.req;
  return errorBody(404, path.startsWith("/api") ? `No API endpoint at ${path}` : "Not found");
}

/**
 * One line per failed request, with its method, path and status: a client's mistake (4xx) is
 * worth a line but never a stack trace; a server fault (5xx) logs its error, once, here.
 */
export const logRequestErrors: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const status = c.res.status;
  if (status < 400) return;
  const line = { method: c.req.method, path: c.req.path, status };
  const failure = c.get("failure");
  if (failure !== undefined) log.error({ ...line, err: failure }, "request failed");
  else if (status >= 500) {
    // A deliberate 5xx (health's 503 while prices are stale, a 502 from Telegram) is a state,
    // not a fault: polled every few seconds, it would otherwise flood the log.
    warnEvery(
      `http ${line.method} ${line.path} ${status}`,
      60_000,
      line,
      "request answered with an error",
    );
  } else log.info(line, "request refused");
};

/**
 * What @hono/node-server answers when it cannot even build a Request (an absolute-form target
 * such as `http://a:99999/`, a bad Host): a 400, where Node would otherwise throw in `new URL`.
 * Anything else reaching here escaped the app's own error handling: a 500 without details.
 */
export function invalidRequest(error: unknown): Response {
  if (!(error instanceof RequestError)) {
    log.error({ status: 500, err: error }, "request failed outside the app");
    return errorBody(500, "Internal server error");
  }
  log.info({ status: 400, reason: error.message }, "request refused");
  return errorBody(400, `Invalid request: ${error.message}`, {}, { connection: "close" });
}

function clientErrorStatus(code: string | undefined): number {
  if (code === "HPE_HEADER_OVERFLOW") return 431;
  if (code === "ERR_HTTP_REQUEST_TIMEOUT" || code === "ERR_HTTP_HEADERS_TIMEOUT") return 408;
  return 400;
}

/**
 * Node's parser rejects what is not HTTP (TLS bytes on the plain port, conflicting
 * Content-Length and Transfer-Encoding, oversized headers) before any handler runs: answer with
 * the same JSON error shape and close the connection, since its framing cannot be trusted.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  const pending = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === "ECONNRESET" || !socket.writable || pending?.headersSent) {
    socket.destroy();
    return;
  }
  const status = clientErrorStatus(error.code);
  const reason = STATUS_CODES[status] ?? "Bad Request";
  const body = JSON.stringify({ error: status === 431 ? "Request headers are too large" : reason });
  log.info({ status, code: error.code }, "request refused by the HTTP parser");
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\ncache-control: no-store\r\n` +
      `connection: close\r\n\r\n${body}`,
  );
}

/** The Retry-After header a procedure asked for through ErrorWithFields, if any. */
export function retryAfterHeader(error: unknown): Record<string, string> {
  const cause = error instanceof TRPCError ? error.cause : error;
  if (!(cause instanceof ErrorWithFields)) return {};
  const seconds = cause.fields.retryAfterSeconds;
  if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0) return {};
  return { "retry-after": String(Math.ceil(seconds)) };
}
