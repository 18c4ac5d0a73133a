import type { createCaller } from "../router.ts";

type Caller = ReturnType<typeof createCaller>;

export interface RestRequest {
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
}

export interface RestRoute {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** The spec's path; `:name` segments become `params.name`. */
  path: string;
  call: (caller: Caller, request: RestRequest) => Promise<unknown>;
}

/**
 * Spec §7 as a table: each REST path names the tRPC procedure that implements it, so there is
 * exactly one implementation of every operation.
 */
export const REST_ROUTES: readonly RestRoute[] = [
  { method: "GET", path: "/api/prices", call: (caller) => caller.market.prices() },
  { method: "GET", path: "/api/calculations", call: (caller) => caller.market.calculations() },
];
