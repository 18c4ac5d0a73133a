import type { IncomingMessage, ServerResponse } from "node:http";
import { TRPCError } from "@trpc/server";
import { type AppServices, createContext } from "../context.ts";
import { createCaller } from "../router.ts";
import { toErrorResponse } from "./errors.ts";
import { matchRoute } from "./match.ts";
import { RestReply } from "./reply.ts";
import { REST_ROUTES } from "./routes.ts";

const MAX_BODY_BYTES = 64 * 1024;

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
  });
  res.end(text);
}

async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) {
      throw new TRPCError({ code: "PAYLOAD_TOO_LARGE", message: "Request body is too large" });
    }
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new TRPCError({ code: "BAD_REQUEST", message: "Request body is not valid JSON" });
  }
}

/** Serves spec §7's REST paths by calling the tRPC procedures named in REST_ROUTES. */
export async function handleRest(
  services: AppServices,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const match = matchRoute(REST_ROUTES, req.method ?? "GET", url.pathname);
  if (!match) return sendJson(res, 404, { error: `No API endpoint at ${url.pathname}` });
  if ("methodNotAllowed" in match) {
    return sendJson(res, 405, { error: `${req.method} is not allowed on ${url.pathname}` });
  }
  try {
    const body =
      req.method === "GET" || req.method === "DELETE" ? undefined : await readJsonBody(req);
    const caller = createCaller(createContext(services, req, res));
    const result = await match.route.call(caller, {
      params: match.params,
      query: url.searchParams,
      body,
    });
    if (result instanceof RestReply) {
      for (const [name, value] of Object.entries(result.headers)) res.setHeader(name, value);
      if (result.body !== undefined) return sendJson(res, result.status, result.body);
      res.writeHead(result.status, { "cache-control": "no-store" });
      return void res.end();
    }
    sendJson(res, 200, result ?? { status: "success" });
  } catch (error) {
    const { status, body } = toErrorResponse(error);
    sendJson(res, status, body);
  }
}
