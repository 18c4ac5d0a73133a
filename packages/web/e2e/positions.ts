// Helpers for the Positions tests and screenshots (docs/user-guide.md "Positions (paper)").
import type { Locator, Page } from "playwright-core";
import { rest } from "./alerts.ts";

export const openDialog = (page: Page): Locator =>
  page.locator("dialog[data-dialog='open-position']");
export const closeDialog = (page: Page): Locator =>
  page.locator("dialog[data-dialog='close-position']");
export const openPositions = (page: Page): Locator => page.locator("section.panel--positions");
export const closedTrades = (page: Page): Locator => page.locator("section.panel--closed-trades");

/** The fastest double click: both clicks land before React re-renders (see double-submit.test.ts). */
export function doubleClick(button: Locator): Promise<void> {
  return button.evaluate((element: HTMLButtonElement) => {
    element.click();
    element.click();
  });
}

export interface ListedPosition {
  id: number;
  spread: string;
  side: string;
  lots: number;
  entry: number;
  units: number;
  margin: { inr: number; source: string; at: number } | null;
}

/** GET /api/positions from the page, with its session. */
export async function listedPositions(page: Page, status = "open"): Promise<ListedPosition[]> {
  const { status: code, json } = await rest(page, "GET", `/api/positions?status=${status}`);
  if (code !== 200) throw new Error(`GET /api/positions answered ${code}`);
  return json.positions as ListedPosition[];
}

/** A figure's `data-value` (the number behind its text) in a position's row or card. */
export async function figure(item: Locator, field: string): Promise<number | null> {
  const text = await item.locator(`[data-field='${field}']`).first().getAttribute("data-value");
  return text === null || text === "" ? null : Number(text);
}
