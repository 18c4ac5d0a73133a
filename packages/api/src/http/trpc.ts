import type { TRPCError } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import type { Handler } from "hono";
import { appRouter } from "../router.ts";
import type { AppEnv, ContextFactory } from "./env.ts";
import { errorBody, retryAfterHeader } from "./errors.ts";

export const TRPC_BASE_PATH = "/api/trpc";

/** A procedure that asked the client to wait (a login limit) says how long in Retry-After. */
function responseMeta({ errors }: { errors: TRPCError[] }) {
  const headers = Object.assign({}, ...errors.map(retryAfterHeader)) as Record<string, string>;
  return { headers };
}

/** tRPC decodes the procedure path with decodeURIComponent, which throws on a bad escape. */
function decodablePath(url: string): boolean {
  try {
    decodeURIComponent(new URL(url).pathname);
    return true;
  } catch {
    return false;
  }
}

/**
 * tRPC answers a request it refuses before running any procedure (a batch mixing queries and
 * mutations, a body that is not JSON) with a JSON body but no Content-Type, which the Response
 * then labels text/plain. Every body it writes outside the event stream is JSON.
 */
function labelledJson(response: Response): Response {
  const type = response.headers.get("content-type");
  if (response.body === null || (type !== null && !type.startsWith("text/plain"))) return response;
  response.headers.set("content-type", "application/json");
  return response;
}

/** tRPC over the fetch adapter; the body limit and write checks ran before it, as for REST. */
export function trpcHandler(createContext: ContextFactory): Handler<AppEnv> {
  return async (c) => {
    if (!decodablePath(c.req.url)) return errorBody(404, "No procedure at this path");
    const response = await fetchRequestHandler({
      endpoint: TRPC_BASE_PATH,
      req: c.req.raw,
      router: appRouter,
      createContext: ({ resHeaders }) => createContext(c, resHeaders),
      responseMeta,
      onError: ({ error }) => {
        if (error.code === "INTERNAL_SERVER_ERROR") c.set("failure", error.cause ?? error);
      },
    });
    return labelledJson(response);
  };
}
