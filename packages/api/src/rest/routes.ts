import { TRPCError } from "@trpc/server";
import type { createCaller } from "../router.ts";
import { RestReply } from "./reply.ts";

type Caller = ReturnType<typeof createCaller>;

/**
 * The body as the procedure's input; the procedure's zod schema is what validates it (strictly:
 * an unknown field is a 400 naming it), so a wrong shape gets the same 400 sentence over REST as
 * over tRPC. No body is no fields; a body that is not an object (an array, a number) is a 400.
 */
// biome-ignore lint/suspicious/noExplicitAny: validated by the procedure's input schema
function object(body: unknown): any {
  if (body === undefined) return {};
  if (typeof body === "object" && body !== null && !Array.isArray(body)) return body;
  throw new TRPCError({ code: "BAD_REQUEST", message: "The request body must be a JSON object" });
}

/** The body of a route whose procedure takes no fields: none, or one it refuses field by field. */
function noFields(request: RestRequest): Record<string, never> | undefined {
  return request.body === undefined ? undefined : object(request.body);
}

/** A query parameter as an input field, only when present (so schema defaults apply). */
function queryParam<K extends string>(request: RestRequest, name: K): Partial<Record<K, string>> {
  const value = request.query.get(name);
  return value === null ? {} : ({ [name]: value } as Record<K, string>);
}

/** `:id` from the path as a number (the adapter lets only canonical ids reach here). */
function id(request: RestRequest): { id: number } {
  return { id: Number(request.params.id) };
}

/** The Idempotency-Key header as the procedure's `idempotencyKey` input, only when sent. */
function idempotencyKey(request: RestRequest): { idempotencyKey?: string } {
  const key = request.headers.get("idempotency-key");
  return key === null ? {} : { idempotencyKey: key };
}

export interface RestRequest {
  params: Record<string, string>;
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
}

export interface RestRoute {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The spec's path; `:name` segments become `params.name`. */
  path: string;
  call: (caller: Caller, request: RestRequest) => Promise<unknown>;
}

/**
 * docs/spec.md §7 as a table: each REST path names the tRPC procedure that implements it, so there is
 * exactly one implementation of every operation.
 */
export const REST_ROUTES: readonly RestRoute[] = [
  { method: "GET", path: "/api/prices", call: (c) => c.market.prices() },
  { method: "GET", path: "/api/calculations", call: (c) => c.market.calculations() },
  {
    method: "GET",
    path: "/api/spread-stats/:symbol",
    call: (c, r) => c.market.stats(object({ symbol: r.params.symbol, ...queryParam(r, "days") })),
  },

  { method: "POST", path: "/api/auth/login", call: (c, r) => c.auth.login(object(r.body)) },
  { method: "POST", path: "/api/auth/logout", call: (c, r) => c.auth.logout(noFields(r)) },
  { method: "GET", path: "/api/auth/status", call: (c) => c.auth.status() },
  { method: "GET", path: "/api/auth/heartbeat", call: (c) => c.auth.heartbeat() },
  {
    method: "POST",
    path: "/api/auth/change-password",
    call: (c, r) => c.auth.changePassword(object(r.body)),
  },

  { method: "GET", path: "/api/alerts", call: (c) => c.alerts.list() },
  {
    method: "POST",
    path: "/api/alerts",
    call: (c, r) => c.alerts.create({ ...object(r.body), ...idempotencyKey(r) }),
  },
  {
    // Before /api/alerts/:id, so "history" is never read as an id.
    method: "GET",
    path: "/api/alerts/history",
    call: (c, r) =>
      c.alerts.history(object({ ...queryParam(r, "limit"), ...queryParam(r, "before") })),
  },
  {
    method: "PUT",
    path: "/api/alerts/:id",
    call: (c, r) => c.alerts.update({ ...object(r.body), ...id(r) }),
  },
  { method: "DELETE", path: "/api/alerts/:id", call: (c, r) => c.alerts.delete(id(r)) },
  {
    method: "POST",
    path: "/api/alerts/:id/trigger",
    call: (c, r) => c.alerts.trigger({ ...object(r.body), ...id(r) }),
  },

  { method: "GET", path: "/api/telegram/status", call: (c) => c.telegram.status() },
  {
    method: "POST",
    path: "/api/telegram/connect",
    call: (c, r) => c.telegram.connect(object(r.body)),
  },
  { method: "POST", path: "/api/telegram/test", call: (c, r) => c.telegram.test(noFields(r)) },
  {
    method: "POST",
    path: "/api/telegram/disconnect",
    call: (c, r) => c.telegram.disconnect(noFields(r)),
  },

  { method: "GET", path: "/api/webhook", call: (c) => c.webhook.get() },
  { method: "PUT", path: "/api/webhook", call: (c, r) => c.webhook.save(object(r.body)) },
  { method: "DELETE", path: "/api/webhook", call: (c) => c.webhook.remove() },
  { method: "POST", path: "/api/webhook/test", call: (c, r) => c.webhook.test(noFields(r)) },

  {
    method: "GET",
    path: "/api/chart-data/:commodity",
    // `t` (the spec's cache-buster) is simply not read.
    call: (c, r) =>
      c.chart.candles(
        object({
          commodity: r.params.commodity,
          ...queryParam(r, "timeframe"),
          ...queryParam(r, "from"),
          ...queryParam(r, "to"),
          ...queryParam(r, "adjust"),
        }),
      ),
  },

  { method: "GET", path: "/api/instruments", call: (c) => c.instruments.list() },
  {
    method: "POST",
    path: "/api/instruments",
    call: async (c, r) => new RestReply(201, await c.instruments.add(object(r.body))),
  },
  {
    // The key arrives URL-decoded: GOLD%40next is GOLD@next.
    method: "DELETE",
    path: "/api/instruments/:key",
    call: async (c, r) => {
      await c.instruments.remove(object({ key: r.params.key }));
      return new RestReply(204, undefined);
    },
  },
  { method: "GET", path: "/api/spreads", call: (c) => c.spreads.list() },
  {
    method: "POST",
    path: "/api/spreads",
    call: async (c, r) =>
      new RestReply(201, await c.spreads.create({ ...object(r.body), ...idempotencyKey(r) })),
  },
  { method: "GET", path: "/api/spreads/:id", call: (c, r) => c.spreads.get(id(r)) },
  {
    method: "PUT",
    path: "/api/spreads/:id",
    call: (c, r) => c.spreads.update({ ...object(r.body), ...id(r) }),
  },
  {
    method: "DELETE",
    path: "/api/spreads/:id",
    call: async (c, r) => {
      await c.spreads.remove(object({ ...id(r), ...queryParam(r, "confirm") }));
      return new RestReply(204, undefined);
    },
  },
  {
    method: "POST",
    path: "/api/executions",
    call: async (c, r) =>
      new RestReply(201, await c.executions.create({ ...object(r.body), ...idempotencyKey(r) })),
  },
  { method: "GET", path: "/api/executions", call: (c) => c.executions.list() },
  {
    method: "GET",
    path: "/api/executions/:id",
    call: (c, r) => c.executions.get({ id: r.params.id ?? "" }),
  },
  {
    method: "POST",
    path: "/api/executions/:id/cancel",
    call: (c, r) => c.executions.cancel({ ...object(r.body), id: r.params.id ?? "" }),
  },
  { method: "GET", path: "/api/profile/kite", call: (c) => c.profileKite.get() },
  {
    method: "GET",
    path: "/api/profile/kite/login",
    call: async (c) => RestReply.redirect((await c.profileKite.loginUrl()).url),
  },
  { method: "PUT", path: "/api/profile/kite", call: (c, r) => c.profileKite.put(object(r.body)) },
  { method: "DELETE", path: "/api/profile/kite", call: (c) => c.profileKite.remove() },
  { method: "GET", path: "/api/admin/live-orders", call: (c) => c.liveOrders.get() },
  {
    method: "PUT",
    path: "/api/admin/live-orders",
    call: (c, r) => c.liveOrders.set(object(r.body)),
  },
  {
    method: "PUT",
    path: "/api/admin/live-orders/users/:id",
    call: (c, r) => c.liveOrders.setTrader({ ...object(r.body), ...id(r) }),
  },
  {
    method: "GET",
    path: "/api/positions",
    call: (c, r) => c.positions.list(object(queryParam(r, "status"))),
  },
  {
    method: "POST",
    path: "/api/positions",
    call: async (c, r) =>
      new RestReply(201, await c.positions.open({ ...object(r.body), ...idempotencyKey(r) })),
  },
  {
    // Before /api/positions/:id, so "closed.csv" and "summary" are never read as ids.
    method: "GET",
    path: "/api/positions/closed.csv",
    call: async (c) =>
      RestReply.text(200, await c.positions.closedCsv(), "text/csv; charset=utf-8", {
        "content-disposition": 'attachment; filename="closed-positions.csv"',
      }),
  },
  { method: "POST", path: "/api/backtests", call: (c, r) => c.backtests.run(object(r.body)) },
  {
    method: "POST",
    path: "/api/backtests/history",
    call: (c, r) => c.backtests.history(object(r.body)),
  },
  {
    method: "POST",
    path: "/api/backtests/sweep",
    call: (c, r) => c.backtests.sweep(object(r.body)),
  },
  { method: "GET", path: "/api/positions/summary", call: (c) => c.positions.summary() },
  { method: "GET", path: "/api/positions/:id", call: (c, r) => c.positions.get(id(r)) },
  {
    method: "PATCH",
    path: "/api/positions/:id",
    call: (c, r) => c.positions.patch({ ...object(r.body), ...id(r) }),
  },
  {
    method: "DELETE",
    path: "/api/positions/:id",
    call: async (c, r) => {
      await c.positions.remove(id(r));
      return new RestReply(204, undefined);
    },
  },
  {
    method: "POST",
    path: "/api/positions/:id/close",
    call: (c, r) => c.positions.close({ ...object(r.body), ...id(r), ...idempotencyKey(r) }),
  },
  {
    method: "POST",
    path: "/api/positions/:id/roll",
    call: (c, r) => c.positions.roll({ ...object(r.body), ...id(r), ...idempotencyKey(r) }),
  },
  {
    method: "GET",
    path: "/api/rolls",
    call: (c, r) =>
      c.market.rolls(
        object({ ...queryParam(r, "key"), ...queryParam(r, "from"), ...queryParam(r, "to") }),
      ),
  },

  { method: "GET", path: "/api/history/coverage", call: (c) => c.history.coverage() },
  {
    method: "POST",
    path: "/api/history/fetch",
    call: (c, r) => c.history.fetchAgain(object(r.body)),
  },

  { method: "GET", path: "/api/auth/users", call: (c) => c.users.list() },
  {
    method: "POST",
    path: "/api/auth/users",
    call: (c, r) => c.users.create({ ...object(r.body), ...idempotencyKey(r) }),
  },
  { method: "DELETE", path: "/api/auth/users/:id", call: (c, r) => c.users.delete(id(r)) },
  {
    method: "PUT",
    path: "/api/auth/users/:id/permissions",
    call: (c, r) => c.users.setPermission({ ...object(r.body), ...id(r) }),
  },

  {
    method: "GET",
    path: "/api/health",
    call: async (c) => {
      const report = await c.health.status();
      return new RestReply(report.ok ? 200 : 503, report);
    },
  },
  { method: "GET", path: "/api/kite/status", call: (c) => c.kite.status() },
  {
    method: "GET",
    path: "/api/kite/login",
    call: async (c) => RestReply.redirect((await c.kite.loginUrl()).url),
  },
  {
    // Kite sends the admin's browser here after the login, with ?request_token=…
    method: "GET",
    path: "/api/kite/callback",
    call: async (c, r) => {
      // A trader's own link (Profile → Connect Kite) says so in its redirect_params.
      if (r.query.get("for") === "profile") {
        await c.profileKite.exchange(
          object({
            requestToken: r.query.get("request_token") ?? undefined,
            state: r.query.get("state") ?? undefined,
          }),
        );
        return RestReply.redirect("/profile?kite=connected");
      }
      // `state` comes back from our login link through Kite's redirect_params.
      await c.kite.exchange(
        object({
          requestToken: r.query.get("request_token") ?? undefined,
          state: r.query.get("state") ?? undefined,
        }),
      );
      return RestReply.redirect("/admin?kite=connected");
    },
  },
];
