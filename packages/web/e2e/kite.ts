import type { Page } from "playwright-core";
import { RETRY_RESET } from "./harness.ts";

/**
 * The signed-in admin's Kite login of the day, as the Connect Kite button's redirects carry it;
 * returns where the callback sends the browser ("/admin?kite=connected" when Kite took it).
 */
export async function connectKite(page: Page, url: string, requestToken = "req-good") {
  const login = await page.request.get(`${url}/api/kite/login`, {
    maxRedirects: 0,
    ...RETRY_RESET,
  });
  const redirect = new URL(login.headers().location as string).searchParams.get("redirect_params");
  const state = new URLSearchParams(redirect ?? "").get("state");
  const callback = await page.request.get(
    `${url}/api/kite/callback?request_token=${requestToken}&state=${state}`,
    { maxRedirects: 0 },
  );
  return callback.headers().location;
}
