// Helpers for the spreads-of-your-own tests (docs/user-guide.md "Spreads of your own").
import type { Locator, Page } from "playwright-core";
import { rest } from "./alerts.ts";

export interface ListedSpread {
  id: number;
  symbol: string;
  name: string;
  formula: string;
  builtin: boolean;
  shared: boolean;
  legs: { name: string; instrument: string; lots?: number }[];
}

export const mySpreads = (page: Page): Locator => page.locator("section.panel--my-spreads");

export const builder = (page: Page): Locator => page.locator("dialog.spread-builder");

/** A definition's group in My spreads, by its name. */
export function spreadGroup(page: Page, name: string): Locator {
  return mySpreads(page)
    .locator("tbody[data-spread]")
    .filter({ has: page.locator(".my-spreads__name", { hasText: name }) });
}

/** The definitions the signed-in user sees, built-ins left out, as GET /api/spreads lists them. */
export async function ownSpreads(page: Page): Promise<ListedSpread[]> {
  const { status, json } = await rest(page, "GET", "/api/spreads");
  if (status !== 200) throw new Error(`GET /api/spreads answered ${status}`);
  return (json.spreads as ListedSpread[]).filter((spread) => !spread.builtin);
}

/** A signed number as the tables show it: "+12.50", "-0.8123". */
export const SIGNED = /^[+-]?\d+\.\d{2,4}$/;

/** Fills the builder's leg `index` (0-based). */
export async function fillLeg(
  dialog: Locator,
  index: number,
  leg: { name: string; instrument: string },
): Promise<void> {
  await dialog.getByLabel(`Leg ${index + 1} name`).fill(leg.name);
  await dialog.getByLabel(`Leg ${index + 1} instrument`).selectOption(leg.instrument);
}
