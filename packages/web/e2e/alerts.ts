import type { Page, Request } from "playwright-core";

/** Locators and REST shortcuts shared by the alert tests. */

export const spreadRow = (page: Page, symbol: string) =>
  page.locator(`tr[data-symbol='${symbol}']`);

export const bells = (page: Page, symbol: string) =>
  spreadRow(page, symbol).locator("button.bell[data-alert-id]");

export const addAlertButton = (page: Page, symbol: string) =>
  spreadRow(page, symbol).getByRole("button", { name: "Add new alert" });

export const modal = (page: Page) => page.getByRole("dialog");

export const thresholdInput = (page: Page) =>
  modal(page).getByLabel("Alert me when Spread reaches", { exact: true });

export const alertsPanel = (page: Page) => page.getByRole("region", { name: "Spread Alerts" });

export const popup = (page: Page) => page.getByRole("region", { name: "Alert Notifications" });

/** The tooltip lines of a bell, read while the pointer rests on it. */
export async function tooltipLines(page: Page, bell: ReturnType<typeof bells>): Promise<string[]> {
  await bell.hover();
  const tooltip = page.getByRole("tooltip");
  await tooltip.waitFor();
  return tooltip.locator("li").allTextContents();
}

/** Waits until a bell's tooltip shows `line`; the open tooltip follows the refreshed list. */
export async function waitForTooltipLine(
  page: Page,
  bell: ReturnType<typeof bells>,
  line: string,
  timeout = 30_000,
): Promise<string[]> {
  await bell.hover();
  const tooltip = page.getByRole("tooltip");
  await tooltip.getByText(line, { exact: true }).waitFor({ timeout });
  return tooltip.locator("li").allTextContents();
}

/** The input a tRPC mutation request carried (the first of its batch). */
export function trpcInput(request: Request): Record<string, unknown> {
  const body = request.postDataJSON() as Record<string, unknown>;
  return (body["0"] ?? body) as Record<string, unknown>;
}

/** Calls the REST API from the page, with its session cookie. */
export function rest(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, json: await response.json() };
    },
    { method, path, body },
  );
}

export async function restAlertIds(page: Page): Promise<number[]> {
  const { json } = await rest(page, "GET", "/api/alerts");
  return (json.alerts as Array<{ id: number }>).map((alert) => alert.id);
}

export async function deleteAllAlertsByRest(page: Page): Promise<void> {
  for (const id of await restAlertIds(page)) await rest(page, "DELETE", `/api/alerts/${id}`);
}
