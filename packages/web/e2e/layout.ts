/** Set-up and measurements for the dashboard's layout invariants (layout.test.ts). */
import type { Page } from "playwright-core";
import { rest } from "./alerts.ts";

const WAIT = { timeout: 60_000 };

/** Alerts per row: three bells on GC_BUY, two on SI_SELL and CL_BUY, one on NG_BUY, and five
 * on HG_SELL, more than a row has bells for. */
export const ALERTS = { GC_BUY: 3, SI_SELL: 2, CL_BUY: 2, NG_BUY: 1, HG_SELL: 5 } as const;

/**
 * Creates the alerts of ALERTS, each a hair from its row's spread now: on the simulator's random
 * walk the spread soon crosses one of them, so toasts follow within seconds of a reload.
 */
export async function alertsAtTheSpread(page: Page): Promise<void> {
  const { json } = await rest(page, "GET", "/api/calculations");
  for (const [symbol, count] of Object.entries(ALERTS)) {
    const spread = (json[symbol] as { spread: number } | undefined)?.spread ?? 0;
    for (let i = 0; i < count; i++) {
      const threshold = Number((spread + (i - (count - 1) / 2) * 0.02).toFixed(2));
      const created = await rest(page, "POST", "/api/alerts", { commodityType: symbol, threshold });
      if (created.status !== 200) throw new Error(`alert on ${symbol}: ${created.status}`);
    }
  }
}

/** Waits until every Spread row is greyed and every raw price row is marked stale. */
export async function everyRowStale(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const spread = [...document.querySelectorAll("table[aria-label='Spread'] tr[data-symbol]")];
      const raw = [...document.querySelectorAll("table[aria-label='Prices'] tbody tr[data-key]")];
      return (
        spread.length === 10 &&
        spread.every((row) => row.getAttribute("data-greyed") === "true") &&
        raw.length > 0 &&
        raw.every((row) => row.getAttribute("data-stale") === "true")
      );
    },
    undefined,
    WAIT,
  );
}

/**
 * Every way the dashboard's layout is broken now, as sentences (none: []). In the page:
 * - a table wider than the box it sits in (its columns scroll out of sight);
 * - a column header not wholly inside its table's visible box or the window ("ALERT");
 * - an Alerts cell whose buttons take more than one line;
 * - a Spread row taller than the others (a row grown to two lines);
 * - a box that scrolls sideways;
 * - the toasts over the visible part of a table.
 */
export function layoutFaults(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    type Box = { left: number; top: number; right: number; bottom: number };
    const faults: string[] = [];
    const clips = (element: Element) => {
      const style = getComputedStyle(element);
      return style.overflowX !== "visible" || style.overflowY !== "visible";
    };
    /** The part of `element` not cut off by a scroll box around it or by the window. */
    const visible = (element: Element): Box => {
      let { left, top, right, bottom } = element.getBoundingClientRect();
      for (let at = element.parentElement; at; at = at.parentElement) {
        if (!clips(at) || at === document.documentElement || at === document.body) continue;
        const clip = at.getBoundingClientRect();
        left = Math.max(left, clip.left);
        top = Math.max(top, clip.top);
        right = Math.min(right, clip.right);
        bottom = Math.min(bottom, clip.bottom);
      }
      return {
        left: Math.max(left, 0),
        top: Math.max(top, 0),
        right: Math.min(right, window.innerWidth),
        bottom: Math.min(bottom, window.innerHeight),
      };
    };
    const overlap = (a: Box, b: Box) =>
      a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const shown = (element: Element) => element.getClientRects().length > 0;

    const tables = [...document.querySelectorAll<HTMLTableElement>("table[aria-label]")];
    for (const table of tables) {
      const name = table.getAttribute("aria-label");
      const box = table.parentElement?.clientWidth ?? 0;
      if (table.scrollWidth > box + 1) faults.push(`${name}: ${table.scrollWidth} px in ${box}`);
      const area = table.parentElement?.getBoundingClientRect();
      for (const th of table.querySelectorAll("thead th")) {
        if (!shown(th) || !area) continue;
        const { left, right } = th.getBoundingClientRect();
        if (left < Math.max(area.left, 0) - 1 || right > Math.min(area.right, innerWidth) + 1) {
          faults.push(`${name}: header ${th.textContent} cut off`);
        }
      }
    }
    for (const cell of document.querySelectorAll("table[aria-label='Spread'] td.alerts")) {
      const lines = new Set(
        [...cell.querySelectorAll("button")].map((b) => Math.round(b.getBoundingClientRect().top)),
      );
      if (lines.size > 1) {
        faults.push(
          `${cell.closest("tr")?.getAttribute("data-symbol")}: alerts on ${lines.size} lines`,
        );
      }
    }
    const rows = [...document.querySelectorAll("table[aria-label='Spread'] tr[data-symbol]")];
    const heights = rows.map((row) => Math.round(row.getBoundingClientRect().height));
    const lowest = Math.min(...heights);
    rows.forEach((row, i) => {
      if ((heights[i] ?? 0) > lowest + 1) {
        faults.push(`${row.getAttribute("data-symbol")}: ${heights[i]} px tall, others ${lowest}`);
      }
    });
    for (const element of [document.documentElement, ...document.querySelectorAll("body *")]) {
      const { overflowX } = getComputedStyle(element);
      const scrolls = element === document.documentElement || /auto|scroll/.test(overflowX);
      if (scrolls && shown(element) && element.scrollWidth > element.clientWidth + 1) {
        if (element.classList.contains("panel__scroll")) continue; // reported as its table
        faults.push(`${element.tagName.toLowerCase()}.${element.className} scrolls sideways`);
      }
    }
    const toasts = document.querySelector("[aria-label='Alert Notifications']");
    if (toasts) {
      const toastBox = toasts.getBoundingClientRect();
      for (const table of tables) {
        const seen = visible(table);
        if (seen.right > seen.left && seen.bottom > seen.top && overlap(seen, toastBox)) {
          faults.push(`toasts over ${table.getAttribute("aria-label")}`);
        }
      }
    }
    return faults;
  });
}
