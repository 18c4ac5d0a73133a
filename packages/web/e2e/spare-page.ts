import type { Browser, BrowserContext, Page } from "playwright-core";
import { newPage, type PageOptions } from "./harness.ts";

/**
 * The page a finished file leaves to the next file of its worker, reset, instead of a new context
 * and page for each file: a new page costs Chromium a renderer process (~1.7 CPU s before it
 * shows anything, ~3.7 with the first load, against ~1.9 for the same sign-in in a page that was
 * used before; BENCHMARKS.md §36). A page is handed on only if its file left nothing behind that
 * the next file could feel: a test that scripts the page or its context (an init script, a route,
 * an exposed function, offline, permissions, a second page, a CDP session, a fake clock, touch)
 * makes it a throwaway, closed as before.
 */
let spare: Page | undefined;

const throwaway = new WeakSet<Page>();
/** The listeners a file's tests put on its page ("dialog", "console", …): taken off before reuse. */
const listeners = new WeakMap<Page, [string, (...args: unknown[]) => void][]>();

/** What marks a page as scripted: Page's and BrowserContext's methods that leave state behind. */
const PAGE_SCRIPTING = [
  "addInitScript",
  "exposeBinding",
  "exposeFunction",
  "route",
  "routeFromHAR",
  "routeWebSocket",
  "setExtraHTTPHeaders",
] as const;
const CONTEXT_SCRIPTING = [
  ...PAGE_SCRIPTING,
  "grantPermissions",
  "newCDPSession",
  "newPage",
  "setGeolocation",
  "setOffline",
] as const;
const CLOCK_SCRIPTING = ["install", "setFixedTime", "setSystemTime", "pauseAt"] as const;

/** A page for a new file: the worker's spare one, set to `options`, or a new one. */
export async function takePage(browser: Browser, options: PageOptions = {}): Promise<Page> {
  const reused = spare && (await reuse(spare, browser, options));
  spare = undefined;
  if (reused) return reused;
  const page = await newPage(browser, options);
  if (options.hasTouch) throwaway.add(page);
  watchScripting(page);
  return page;
}

/** The spare page set to `options`, or undefined (and the spare closed) if it cannot serve. */
async function reuse(
  page: Page,
  browser: Browser,
  options: PageOptions,
): Promise<Page | undefined> {
  try {
    if (options.hasTouch || page.isClosed() || !browser.isConnected()) throw new Error("unfit");
    await page.setViewportSize({ width: options.width ?? 1280, height: options.height ?? 900 });
    await page.emulateMedia({
      media: null,
      colorScheme: options.colorScheme ?? "light",
      reducedMotion: options.reducedMotion ?? "reduce",
      forcedColors: null,
    });
    return page;
  } catch {
    await page
      .context()
      .close()
      .catch(() => {});
    return undefined;
  }
}

/**
 * At the end of a file, while its server still answers: keeps `page` as the worker's spare if
 * nothing scripted it, with the server's storage and every cookie cleared and the page on
 * about:blank. Returns the context to leave open (or undefined when the page was not kept).
 */
export async function keepAsSpare(page: Page | undefined): Promise<BrowserContext | undefined> {
  if (!page || throwaway.has(page) || page.isClosed() || page.context().pages().length !== 1) {
    return undefined;
  }
  try {
    const origin = new URL(page.url()).origin;
    if (origin.startsWith("http")) {
      // A later file's server may get the same port (the same origin): nothing of this one's stays.
      await page.evaluate(() => {
        localStorage.clear();
        sessionStorage.clear();
      });
    }
    for (const [event, listener] of listeners.get(page) ?? []) page.off(event as "close", listener);
    listeners.delete(page);
    await page.goto("about:blank", { timeout: 10_000 });
    await page.context().clearCookies();
    spare = page;
    return page.context();
  } catch {
    return undefined;
  }
}

function watchScripting(page: Page): void {
  const markThrowaway = () => throwaway.add(page);
  wrap(page, PAGE_SCRIPTING, markThrowaway);
  wrap(page.context(), CONTEXT_SCRIPTING, markThrowaway);
  wrap(page.clock, CLOCK_SCRIPTING, markThrowaway);
  wrap(page.context().clock, CLOCK_SCRIPTING, markThrowaway);
  const added: [string, (...args: unknown[]) => void][] = [];
  listeners.set(page, added);
  wrap(page, ["on", "once", "addListener", "prependListener"], (event, listener) =>
    added.push([event as string, listener as (...args: unknown[]) => void]),
  );
}

function wrap<T extends object>(
  target: T,
  methods: readonly string[],
  before: (...args: unknown[]) => void,
): void {
  const record = target as Record<string, unknown>;
  for (const name of methods) {
    const original = record[name];
    if (typeof original !== "function") continue;
    record[name] = (...args: unknown[]) => {
      before(...args);
      return original.apply(target, args);
    };
  }
}
