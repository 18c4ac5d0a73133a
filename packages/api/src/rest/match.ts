import type { RestRoute } from "./routes.ts";

export interface RouteMatch {
  route: RestRoute;
  params: Record<string, string>;
}

function matchPath(pattern: string, pathname: string): Record<string, string> | undefined {
  const want = pattern.split("/");
  const got = pathname.replace(/\/+$/, "").split("/");
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const segment = want[i] as string;
    const actual = got[i] as string;
    if (segment.startsWith(":")) params[segment.slice(1)] = decodeURIComponent(actual);
    else if (segment !== actual) return undefined;
  }
  return params;
}

/**
 * Finds the route for a request. `methodNotAllowed` is set when the path exists under another
 * method, so the client gets 405 rather than a misleading 404.
 */
export function matchRoute(
  routes: readonly RestRoute[],
  method: string,
  pathname: string,
): RouteMatch | { methodNotAllowed: true } | undefined {
  let pathKnown = false;
  for (const route of routes) {
    const params = matchPath(route.path, pathname);
    if (!params) continue;
    if (route.method === method) return { route, params };
    pathKnown = true;
  }
  return pathKnown ? { methodNotAllowed: true } : undefined;
}
