import type { Browser, BrowserContext, Page } from "playwright-core";
import { newPage, type PageOptions, pageSettings } from "./harness.ts";

/**
 * Pages a test is done with wait, reset, for the next page a test of the same worker opens,
 * instead of a new context and page each time: a new page costs Chromium a renderer process
 * (~1.7 CPU s before it shows anything, ~3.7 with the first sign-in, against ~1.9 for the same
 * sign-in in a page that was used before; docs/decisions.md, "Tests"). What a test did to a page
 * is undone before it waits: its routes, init scripts and exposed functions removed, its
 * listeners taken off, its storage and cookies cleared, about:blank loaded. A page whose test did
 * what cannot be undone with certainty (a CDP session, a second page in its context, a fake
 * clock, a HAR or WebSocket route, a geolocation, a touch screen) is closed instead.
 */
const spares: Page[] = [];
/** Enough for the pages one file keeps open side by side; more would only idle. */
const MAX_SPARES = 4;

interface Undo {
  disposables: { dispose(): Promise<void> }[];
  listeners: [string, (...args: unknown[]) => void][];
  routed: boolean;
  throwaway: boolean;
}
const undo = new WeakMap<Page, Undo>();
/** The pages openPage handed out and closePage has not taken back: a second close does nothing. */
const inUse = new WeakSet<Page>();

/** Methods that return a Disposable for what they added (Playwright 1.65). */
const DISPOSABLE = ["addInitScript", "exposeBinding", "exposeFunction"] as const;
const LISTENING = ["on", "once", "addListener", "prependListener"] as const;
const THROWAWAY_PAGE = ["routeFromHAR", "routeWebSocket", "setExtraHTTPHeaders"] as const;
const THROWAWAY_CONTEXT = [
  ...THROWAWAY_PAGE,
  "grantPermissions",
  "newCDPSession",
  "newPage",
  "setGeolocation",
  "setOffline",
] as const;
const CLOCK = ["install", "setFixedTime", "setSystemTime", "pauseAt"] as const;

/** A page set to `options`: a spare one of this worker's if there is one, else a new one. */
export async function openPage(browser: Browser, options: PageOptions = {}): Promise<Page> {
  while (!options.hasTouch && spares.length > 0) {
    const reused = await reuse(spares.pop() as Page, browser, options);
    if (reused) {
      inUse.add(reused);
      return reused;
    }
  }
  const page = await newPage(browser, options);
  watch(page, Boolean(options.hasTouch));
  inUse.add(page);
  return page;
}

/**
 * Done with `page`: undoes what its test did and keeps it for the next openPage, or closes its
 * context when that cannot be done. Call it while the page's server still answers.
 */
export async function closePage(page: Page | undefined): Promise<void> {
  if (!page || page.isClosed()) return;
  const done = undo.get(page);
  if (done && !inUse.has(page)) return;
  inUse.delete(page);
  if (!done || done.throwaway || spares.length >= MAX_SPARES || !(await reset(page, done))) {
    await page
      .context()
      .close()
      .catch(() => {});
    return;
  }
  spares.push(page);
}

/** The contexts of the pages waiting for reuse, which a file's clean-up leaves open. */
export function spareContexts(): Set<BrowserContext> {
  return new Set(spares.map((page) => page.context()));
}

async function reuse(
  page: Page,
  browser: Browser,
  options: PageOptions,
): Promise<Page | undefined> {
  try {
    if (page.isClosed() || !browser.isConnected()) throw new Error("gone");
    const { viewport, colorScheme, reducedMotion } = pageSettings(options);
    await page.setViewportSize(viewport);
    await page.emulateMedia({ media: null, colorScheme, reducedMotion, forcedColors: null });
    return page;
  } catch {
    await page
      .context()
      .close()
      .catch(() => {});
    return undefined;
  }
}

async function reset(page: Page, done: Undo): Promise<boolean> {
  try {
    if (page.context().pages().length !== 1) return false;
    for (const [event, listener] of done.listeners.splice(0)) page.off(event as "close", listener);
    for (const disposable of done.disposables.splice(0)) await disposable.dispose();
    if (done.routed) await page.unrouteAll({ behavior: "ignoreErrors" });
    done.routed = false;
    if (new URL(page.url()).protocol.startsWith("http")) {
      // A later server may get the same port, so the same origin: nothing of this one's stays.
      await page.evaluate(() => {
        localStorage.clear();
        sessionStorage.clear();
      });
    }
    await page.goto("about:blank", { timeout: 10_000 });
    await page.context().clearCookies();
    return true;
  } catch {
    return false;
  }
}

/** Records what a test does to `page` and its context, so that closePage can undo it. */
function watch(page: Page, touch: boolean): void {
  const done: Undo = { disposables: [], listeners: [], routed: false, throwaway: touch };
  undo.set(page, done);
  const context = page.context();
  for (const target of [page, context]) {
    wrap(target, DISPOSABLE, (result) => done.disposables.push(result as Undo["disposables"][0]));
  }
  wrap(page, ["route"], () => {
    done.routed = true;
  });
  wrap(context, ["route"], () => {
    done.throwaway = true;
  });
  wrap(page, LISTENING, (_result, event, listener) => {
    done.listeners.push([event as string, listener as (...args: unknown[]) => void]);
  });
  const throwaway = () => {
    done.throwaway = true;
  };
  wrap(page, THROWAWAY_PAGE, throwaway);
  wrap(context, THROWAWAY_CONTEXT, throwaway);
  wrap(page.clock, CLOCK, throwaway);
  wrap(context.clock, CLOCK, throwaway);
}

/** Replaces `methods` of `target` with ones that call `after` with the (awaited) result and args. */
function wrap<T extends object>(
  target: T,
  methods: readonly string[],
  after: (result: unknown, ...args: unknown[]) => void,
): void {
  const record = target as Record<string, unknown>;
  for (const name of methods) {
    const original = record[name];
    if (typeof original !== "function") continue;
    record[name] = (...args: unknown[]) => {
      const result = original.apply(target, args);
      if (result instanceof Promise) {
        return result.then((value) => {
          after(value, ...args);
          return value;
        });
      }
      after(result, ...args);
      return result;
    };
  }
}
