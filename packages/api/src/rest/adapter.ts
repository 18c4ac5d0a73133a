import { Hono, type Context as HonoContext } from "hono";
import type { AppEnv, ContextFactory } from "../http/env.ts";
import { errorBody } from "../http/errors.ts";
import { createCaller } from "../router.ts";
import { toErrorResponse } from "./errors.ts";
import { OPENAPI_PATH, openApiDocument } from "./openapi.ts";
import { RestReply } from "./reply.ts";
import { REST_ROUTES, type RestRoute } from "./routes.ts";

class BadJson extends Error {}

async function readJsonBody(c: HonoContext<AppEnv>): Promise<unknown> {
  if (c.req.method === "GET" || c.req.method === "DELETE") return undefined;
  const text = await c.req.text();
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new BadJson();
  }
}

function json(status: number, body: unknown, headers: Headers): Response {
  headers.set("content-type", "application/json; charset=utf-8");
  headers.set("cache-control", "no-store");
  return new Response(JSON.stringify(body), { status, headers });
}

/** The procedure's result as a response, with the headers (cookies) the procedure set. */
function reply(result: unknown, headers: Headers): Response {
  if (!(result instanceof RestReply)) return json(200, result ?? { status: "success" }, headers);
  for (const [name, value] of Object.entries(result.headers)) headers.set(name, value);
  if (result.contentType !== undefined) {
    headers.set("content-type", result.contentType);
    headers.set("cache-control", "no-store");
    return new Response(String(result.body), { status: result.status, headers });
  }
  if (result.body !== undefined) return json(result.status, result.body, headers);
  headers.set("cache-control", "no-store");
  return new Response(null, { status: result.status, headers });
}

async function serve(c: HonoContext<AppEnv>, route: RestRoute, createContext: ContextFactory) {
  const headers = new Headers();
  try {
    const body = await readJsonBody(c);
    const caller = createCaller(createContext(c, headers));
    const result = await route.call(caller, {
      params: c.req.param(),
      query: new URL(c.req.url).searchParams,
      headers: c.req.raw.headers,
      body,
    });
    return reply(result, headers);
  } catch (error) {
    if (error instanceof BadJson) return errorBody(400, "Request body is not valid JSON");
    const response = toErrorResponse(error);
    if (response.failure !== undefined) c.set("failure", response.failure);
    for (const [name, value] of Object.entries(response.headers)) headers.set(name, value);
    return json(response.status, response.body, headers);
  }
}

/**
 * A record's id as a path may spell it: plain decimal digits without a leading zero, a minus
 * only for the built-in spreads' negative ids, at most 15 digits (so every one is an exact
 * double). `Number()` would also read 0x1c, 29e0, +30, " 31", 33.0, 0b100010 and 0o43, giving a
 * record many names; those paths match no route, so they are the 404 of any unknown path
 * (docs/design.md §3).
 */
const CANONICAL_ID = ":id{-?[1-9][0-9]{0,14}}";
/** A live-order campaign is named by its tag stem (docs/decisions.md, "Live orders"), one spelling. */
const CAMPAIGN_ID = ":id{sw[0-9a-f]{12}}";

function canonicalIds(path: string): string {
  const id = path.startsWith("/api/executions/") ? CAMPAIGN_ID : CANONICAL_ID;
  return path.replace(/:id(?=\/|$)/, id);
}

/**
 * docs/spec.md §7's REST paths as hono routes, each calling the tRPC procedure REST_ROUTES names. A path
 * that exists under other methods answers 405 with Allow, not a misleading 404.
 */
export function restRoutes(createContext: ContextFactory): Hono<AppEnv> {
  const rest = new Hono<AppEnv>({ strict: false });
  // The table below described for clients and API explorers (docs/http-api.md); public.
  rest.get(OPENAPI_PATH, async (c) => c.json(await openApiDocument()));
  for (const route of REST_ROUTES)
    rest.on(route.method, canonicalIds(route.path), (c) => serve(c, route, createContext));
  const methods = new Map<string, string[]>();
  for (const { path, method } of REST_ROUTES) {
    const matched = canonicalIds(path);
    methods.set(matched, [...(methods.get(matched) ?? []), method]);
  }
  for (const [path, allowed] of methods) {
    rest.all(path, (c) =>
      errorBody(
        405,
        `${c.req.method} is not allowed on ${c.req.path}`,
        {},
        { allow: allowed.join(", ") },
      ),
    );
  }
  return rest;
}
