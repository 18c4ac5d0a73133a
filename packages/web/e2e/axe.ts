import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Locator, Page } from "playwright-core";

// axe-core's own types describe the browser global; only the fields read here are typed.
interface AxeNode {
  target: unknown[];
  html: string;
  failureSummary?: string;
}
interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: AxeNode[];
}

// Evaluated through the DevTools protocol, which the app's Content-Security-Policy (no inline
// scripts) does not apply to, unlike page.addScriptTag.
const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);

/** What fails the check: a user who relies on assistive technology is blocked or badly slowed. */
const BLOCKING = new Set(["serious", "critical"]);

export interface AxeOptions {
  /** Only this part of the page (a dialog, a sheet); default the whole document. */
  within?: Locator;
  /**
   * Only the rules a colour change can break (COLOUR_RULES): for a page whose markup another
   * check already passed and whose colours alone differ (a dark scheme, a cell mid-flash).
   */
  coloursOnly?: boolean;
  /**
   * Only the elements this CSS selector matches (all of them, inside `within` if given) and what
   * they hold: for a change of colours confined to them (cells mid-flash), instead of every
   * element of the page again.
   */
  only?: string;
}

/** What a colour scheme or a tint can break; every other rule reads markup, names and layout. */
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

/**
 * Runs axe-core (WCAG 2 A and AA rules plus best practices) on the page as it is now and
 * returns its serious and critical violations, one readable line per failing element.
 */
export async function axeViolations(page: Page, options: AxeOptions = {}): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) {
    await page.evaluate(AXE_SOURCE);
  }
  const scope = options.within ? await options.within.elementHandle() : null;
  const violations = await page.evaluate(
    async ([root, colourRules, only]) => {
      // biome-ignore lint/suspicious/noExplicitAny: the injected axe global has no types here
      const axe = (window as any).axe;
      // `only` within `within` when both are given: the matching elements inside the scope.
      const scope = root ?? document;
      const context = only ? { include: [...scope.querySelectorAll(only)] } : scope;
      const result = await axe.run(context, {
        resultTypes: ["violations"],
        runOnly: colourRules
          ? { type: "rule", values: colourRules }
          : {
              type: "tag",
              values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"],
            },
        // Marked experimental by axe, so off unless named: a control's accessible name must
        // contain its visible text (WCAG 2.5.3), or a voice user saying what they see misses it.
        rules: colourRules ? {} : { "label-content-name-mismatch": { enabled: true } },
      });
      return result.violations as AxeViolation[];
    },
    [scope, options.coloursOnly ? COLOUR_RULES : null, options.only ?? null] as const,
  );
  return violations
    .filter((v) => BLOCKING.has(v.impact ?? ""))
    .flatMap((v) =>
      v.nodes.map(
        (node) =>
          `${v.impact} ${v.id} (${v.help}) at ${node.target.join(" ")}\n    ${node.html.slice(0, 200)}\n    ${(node.failureSummary ?? "").replaceAll("\n", "\n    ")}`,
      ),
    );
}

/** Throws, listing every element, when axe finds a serious or critical violation. */
export async function expectAccessible(
  page: Page,
  where: string,
  options: AxeOptions = {},
): Promise<void> {
  const found = await axeViolations(page, options);
  if (found.length > 0) {
    throw new Error(
      `${found.length} serious/critical axe violations on ${where}:\n${found.join("\n")}`,
    );
  }
}

/** Cells that flash on a move (SpreadValue: docs/spec.md §4). */
const FLASHING = "td[data-col='spread']";

/**
 * expectAccessible with every spread cell held mid-flash, once on the increase background and
 * once on the decrease one, so text of either sign is checked on either tint. The flash class
 * is added with its animation paused, so the cell holds the keyframes' first colour (the one
 * a moving price shows for most of its 1.5 s, styles/tables.css) while axe reads it.
 */
export async function expectAccessibleMidFlash(
  page: Page,
  where: string,
  options: AxeOptions = {},
): Promise<void> {
  for (const direction of ["increase", "decrease"] as const) {
    const flash = { selector: FLASHING, name: `highlight-${direction}` };
    const flashing = await page.evaluate(({ selector, name }) => {
      const cells = document.querySelectorAll<HTMLElement>(selector);
      for (const cell of cells) {
        cell.style.animationPlayState = "paused";
        cell.classList.add(name);
      }
      return cells.length;
    }, flash);
    try {
      if (flashing === 0) throw new Error(`no flashing cells on ${where}`);
      // The flash changes the colours of the flashing cells alone; the markup and every other
      // element were checked before it (expectAccessible).
      await expectAccessible(page, `${where}, cells mid-flash (${direction})`, {
        ...options,
        coloursOnly: true,
        only: FLASHING,
      });
    } finally {
      await page.evaluate(({ selector, name }) => {
        for (const cell of document.querySelectorAll<HTMLElement>(selector)) {
          cell.classList.remove(name);
          cell.style.animationPlayState = "";
        }
      }, flash);
    }
  }
}

/**
 * Runs `check` with the page in the dark theme, set as the Profile switch sets it (`data-theme`
 * on <html>, src/theme.ts; nothing saved), then puts the light theme back: the screen in the
 * same state, in the other colours.
 */
export async function inDarkTheme(page: Page, check: () => Promise<void>): Promise<void> {
  await setTheme(page, "dark");
  try {
    await check();
  } finally {
    await setTheme(page, "light");
  }
}

async function setTheme(page: Page, theme: "light" | "dark"): Promise<void> {
  await page.evaluate((name) => {
    document.documentElement.dataset.theme = name;
  }, theme);
  // Colours read once no transition is under way (a switch's track fades, styles/forms.css)
  // and a chart on the page is drawn again in them (it rebuilds a moment after, SpreadChart.tsx).
  await page.waitForFunction(
    (name) =>
      document
        .getAnimations()
        .every(
          (animation) => !(animation instanceof CSSTransition) || animation.playState !== "running",
        ) &&
      [...document.querySelectorAll<HTMLElement>("[data-testid='spread-chart']")].every(
        (chart) => chart.dataset.drawnTheme === name,
      ),
    theme,
  );
}
