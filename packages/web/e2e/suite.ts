import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { FakeTelegram } from "../../api/test/fake-telegram.ts";
import {
  createUsers,
  launchBrowser,
  login,
  type NewUser,
  type PageOptions,
  type RunningApp,
  signIn,
} from "./harness.ts";
import { closePage, openPage, spareContexts } from "./spare-page.ts";

/** What a test file works with; every field is filled in by the file's beforeAll. */
export interface Suite<A extends RunningApp = RunningApp> {
  app: A;
  browser: Browser;
  /** The file's page; not opened with `page: false`. */
  page: Page;
  /** The fake Bot API the app sends to; only with `telegram`. */
  telegram: FakeTelegram;
}

export interface SuiteOptions<A extends RunningApp> {
  /** A fake Telegram Bot API, started before the app (`app` gets it) and stopped after it. */
  telegram?: { refuseChats?: string[] };
  /** Starts the server: startApp or startComposite, with options made at start-up time. */
  app: (suite: Suite) => Promise<A>;
  /** Created through the REST API (one admin login there) before any page signs in. */
  users?: NewUser[];
}

export interface SignedOutOptions<A extends RunningApp> extends SuiteOptions<A> {
  /** The page's viewport and colour scheme; false opens no page. */
  page?: PageOptions | false;
}

export interface SignedInOptions<A extends RunningApp> extends SuiteOptions<A> {
  page?: PageOptions;
  /** Set-up the page needs before its first request (spies, routes, request counters). */
  beforeLogin?: (page: Page) => unknown;
  /** Who signs in on the page: through the REST API unless `loginScreen` (harness.ts, signIn). */
  as: { username: string; password: string };
  /**
   * Sign in on the login screen, as a person does: for files whose tests go on from what it
   * leaves behind (the username it remembers for the next sign-in).
   */
  loginScreen?: boolean;
  /** After signing in, follow this link and wait for its path. */
  open?: { link: string; path: string };
  /** After signing in (and `open`), wait until this is on the page. */
  waitFor?: (page: Page) => Locator;
}

/**
 * The file's server, users, browser and page, signed in as `as`: one beforeAll sets them up in
 * that order, one afterAll closes the file's browser contexts and stops the app (then the fake
 * Telegram).
 */
export function signedInSuite<A extends RunningApp>(options: SignedInOptions<A>): Suite<A> {
  return registerSuite(options, async (suite) => {
    suite.page = await openPage(suite.browser, options.page);
    await options.beforeLogin?.(suite.page);
    const signInWith = options.loginScreen ? login : signIn;
    await signInWith(suite.page, suite.app.url, options.as.username, options.as.password);
    if (options.open) {
      await suite.page.getByRole("link", { name: options.open.link }).click();
      await suite.page.waitForURL(`${suite.app.url}${options.open.path}`);
    }
    await options.waitFor?.(suite.page).waitFor();
  });
}

/** Like signedInSuite, with the page (if any) left signed out: the file signs in itself. */
export function signedOutSuite<A extends RunningApp>(options: SignedOutOptions<A>): Suite<A> {
  return registerSuite(options, async (suite) => {
    if (options.page !== false) suite.page = await openPage(suite.browser, options.page);
  });
}

/**
 * One Chromium per vitest worker, as Playwright's own runner keeps one per worker: the e2e files
 * of a worker share a module graph (vitest.config.ts), and each file works in contexts of its own
 * (cookies, storage, viewport) and closes them when done, but for its suite page, which may go on
 * to the next file (spare-page.ts). A launch costs ~2.4 CPU seconds, a
 * context ~1.2 (BENCHMARKS.md §32). A browser that went away is launched again for the next file.
 */
let workerBrowser: Promise<Browser> | undefined;

export function sharedBrowser(): Promise<Browser> {
  if (!workerBrowser) {
    const launching = launchBrowser().then((browser) => {
      browser.on("disconnected", () => {
        if (workerBrowser === launching) workerBrowser = undefined;
      });
      return browser;
    });
    launching.catch(() => {
      if (workerBrowser === launching) workerBrowser = undefined;
    });
    workerBrowser = launching;
  }
  return workerBrowser;
}

function registerSuite<A extends RunningApp>(
  options: SuiteOptions<A>,
  withBrowser: (suite: Suite<A>) => Promise<void>,
): Suite<A> {
  // Filled in by beforeAll before any test reads them.
  const suite = {} as Suite<A>;
  beforeAll(async () => {
    if (options.telegram) {
      suite.telegram = await new FakeTelegram().start();
      for (const chatId of options.telegram.refuseChats ?? []) suite.telegram.refuseChat(chatId);
    }
    suite.app = await options.app(suite);
    if (options.users) await createUsers(suite.app.url, options.users);
    suite.browser = await sharedBrowser();
    await withBrowser(suite);
  });
  afterAll(async () => {
    // The browser stays for the worker's next file, and so do the pages that can be reset
    // (spare-page.ts); every other context this file opened goes.
    await closePage(suite.page);
    const spare = spareContexts();
    await Promise.all(
      suite.browser
        ?.contexts()
        .filter((context) => !spare.has(context))
        .map((context) => context.close()) ?? [],
    );
    await suite.app?.stop();
    await suite.telegram?.stop();
  });
  return suite;
}
