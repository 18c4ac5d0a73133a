// For the *-shoot.ts scripts, which take screenshots for eyeballing layout and themes.
import { mkdir } from "node:fs/promises";
import type { Page } from "playwright-core";
import { launchBrowser, newPage } from "./harness.ts";

/** Where the screenshots go: the script's first argument, or /tmp/shots. */
export const outDir = process.argv[2] ?? "/tmp/shots";

export interface Screen {
  width: number;
  colorScheme: "light" | "dark";
  /** `${width}-${colorScheme}`, for file names. */
  tag: string;
}

export interface ScreenOptions {
  /** Default 1280 and 390. */
  widths?: readonly number[];
  /** Narrow screens (under 500 px) get touch, as a phone has. Default off. */
  touchWhenNarrow?: boolean;
}

/**
 * Runs `each` on a fresh page for every screen (1280 and 390 px wide unless told, light and
 * dark), `height` px tall when wide and 844 when narrow; then closes the browser and calls `stop`.
 */
export async function eachScreen(
  height: number,
  stop: () => Promise<void>,
  each: (page: Page, screen: Screen) => Promise<void>,
  options: ScreenOptions = {},
): Promise<void> {
  await mkdir(outDir, { recursive: true });
  const browser = await launchBrowser();
  try {
    for (const width of options.widths ?? [1280, 390]) {
      for (const colorScheme of ["light", "dark"] as const) {
        const page = await newPage(browser, {
          width,
          height: width > 600 ? height : 844,
          colorScheme,
          hasTouch: options.touchWhenNarrow === true && width < 500,
        });
        await each(page, { width, colorScheme, tag: `${width}-${colorScheme}` });
        await page.context().close();
      }
    }
  } finally {
    await browser.close();
    await stop();
  }
}

/** Saves outDir/`name`.png: the whole page, the viewport (fullPage: false) or one element. */
export async function shoot(
  page: Page,
  name: string,
  options: { fullPage?: boolean; selector?: string } = {},
): Promise<void> {
  const file = `${outDir}/${name}.png`;
  if (options.selector) await page.locator(options.selector).screenshot({ path: file });
  else await page.screenshot({ path: file, fullPage: options.fullPage ?? true });
  console.log(file);
}

/** One admin with alerts per screen width and colour scheme, `desk-<scheme>-<width>`. */
export function deskUsers(widths: readonly { width: number }[]) {
  return widths.flatMap(({ width }) =>
    (["light", "dark"] as const).map((theme) => ({
      username: `desk-${theme}-${width}`,
      password: "desk-secret",
      is_admin: true,
      alerts_enabled: true,
    })),
  );
}
