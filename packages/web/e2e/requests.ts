import type { Page } from "playwright-core";

/** TRPC calls of one procedure, batched or not: `/api/trpc/a.b,auth.login?batch=1`. */
export function procedure(name: string): RegExp {
  return new RegExp(`/api/trpc/[^?]*\\b${name.replace(".", "\\.")}\\b`);
}

/** URLs of every request the page sends that matches, from now on. */
export function recordRequests(page: Page, pattern: RegExp): string[] {
  const seen: string[] = [];
  page.on("request", (request) => {
    if (pattern.test(request.url())) seen.push(request.url());
  });
  return seen;
}

/** Holds matching requests until the returned function is called, to see in-between states. */
export async function holdRequests(page: Page, pattern: RegExp): Promise<() => void> {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(pattern, async (route) => {
    await gate;
    // The page may have given up on it meanwhile (a refetch cancelled by a newer one): such a
    // route is already handled, and there is nothing left to let through.
    await route.continue().catch((error: Error) => {
      if (!/already handled/.test(error.message)) throw error;
    });
  });
  return release;
}

/** The decoded `input` of each market.onSnapshot request the page makes (undefined: none), into `into`. */
export function recordStreamInputs<T = unknown>(page: Page, into: Array<T | undefined>): void {
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (!url.pathname.endsWith("/market.onSnapshot")) return;
    const input = url.searchParams.get("input");
    into.push(input === null ? undefined : (JSON.parse(input) as T));
  });
}
