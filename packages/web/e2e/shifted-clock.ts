import type { Browser, BrowserContext } from "playwright-core";
import { clockShiftMs } from "../../api/test/test-env.ts";

/**
 * In a `pnpm test:at` run (scripts/test-at.mjs) the servers' clocks are moved with libfaketime,
 * which Chromium does not survive (its threads spin on the hooked clock), so Chromium keeps the
 * real one and each page's `Date` is moved by the same shift instead: the app reads the time only
 * through `Date`. Every context the browser makes gets it, the spare pages' too (it is not one of
 * the init scripts a test adds and spare-page.ts removes). On today's date it does nothing.
 */
export function shiftPageClocks(browser: Browser): void {
  const shift = clockShiftMs();
  if (shift === 0) return;
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...options) => {
    const context = await newContext(...options);
    await shiftClock(context, shift);
    return context;
  };
}

/** Moves `Date` in every page of `context` by `shift` ms. */
export async function shiftClock(context: BrowserContext, shift: number): Promise<void> {
  await context.addInitScript(moveDate, shift);
}

/** Runs in the page: `Date` as before, `shift` ms later. */
function moveDate(shift: number): void {
  const RealDate = Date;
  const now = () => RealDate.now() + shift;
  const AnyDate = RealDate as unknown as new (...args: unknown[]) => Date;
  function ShiftedDate(this: unknown, ...args: unknown[]) {
    if (!new.target) return new RealDate(now()).toString();
    return args.length === 0 ? new RealDate(now()) : new AnyDate(...args);
  }
  ShiftedDate.prototype = RealDate.prototype;
  ShiftedDate.now = now;
  ShiftedDate.parse = RealDate.parse;
  ShiftedDate.UTC = RealDate.UTC;
  globalThis.Date = ShiftedDate as unknown as DateConstructor;
}

/**
 * Now on Chromium's own clock, which a `pnpm test:at` run leaves real: what a cookie's expiry,
 * set by `max-age`, counts from.
 */
export function browserNow(): number {
  return Date.now() - clockShiftMs();
}
