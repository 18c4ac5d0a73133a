import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  acceptLoginOfTheDay,
  FakeKite,
  instrumentsCsv,
  mcxFuture,
} from "../../api/test/fakes/fake-kite.ts";
import {
  bookTick,
  frame,
  GOLD_APR,
  GOLD_FEB,
  ZINC_JAN,
} from "../../api/test/fakes/kite-packets.ts";
import { ADMIN, type RunningApp, startApp } from "./harness.ts";
import { connectKite } from "./kite.ts";
import { signedInSuite } from "./suite.ts";

// Admin → Instruments against a real provider: the production start on FEED=composite with a
// fake Kite on loopback (instruments list + binary ticks). The admin connects Kite, adds ZINC
// and GOLD's next month on the page, and both quote live in the Prices table with the contract
// names Kite's list gives (docs/user-guide.md "Instruments").

/** Generous on a shared machine; nothing here is timed. */
const WAIT = { timeout: 20_000 };

/** Half a rupee either side of `rupees`. */
const tick = (token: number, rupees: number) => bookTick(token, rupees, 50);

interface KiteApp extends RunningApp {
  kite: FakeKite;
}

async function startWithKite(): Promise<KiteApp> {
  const kite = await new FakeKite().start();
  acceptLoginOfTheDay(kite);
  // Contracts of 2099, so the calendar never rolls them under the test.
  kite.instruments.set(
    "MCX",
    instrumentsCsv([
      mcxFuture(GOLD_FEB, "GOLD99FEBFUT", "GOLD", "2099-02-05"),
      mcxFuture(GOLD_APR, "GOLD99APRFUT", "GOLD", "2099-04-03"),
      mcxFuture(ZINC_JAN, "ZINC99JANFUT", "ZINC", "2099-01-30"),
    ]),
  );
  const dir = await mkdtemp(join(tmpdir(), "spreadwatch-e2e-kite-"));
  const config = join(dir, "market-data.json");
  await writeFile(
    config,
    JSON.stringify({
      providers: {
        kite: { type: "kite", keys: ["GOLD"], hours: "always", tokenCheckSeconds: 0.05 },
      },
    }),
  );
  const app = await startApp({
    feed: "composite",
    env: {
      MARKET_DATA_CONFIG: config,
      ...kite.env(),
    },
  });
  return {
    ...app,
    kite,
    async stop() {
      await app.stop();
      await kite.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const suite = signedInSuite({ app: startWithKite, as: ADMIN });

async function add(page: Page, root: string, key: string): Promise<void> {
  await page.getByLabel("Instrument", { exact: true }).selectOption(root);
  await page.getByLabel("Contract month").selectOption(key);
  await page.getByRole("button", { name: "Add Instrument" }).click();
  await page
    .getByRole("table", { name: "Instruments in use" })
    .locator(`tr[data-instrument='${key}']`)
    .waitFor(WAIT);
}

describe("Admin → Instruments through a fake Kite", () => {
  it("adds ZINC and GOLD@next; Kite's ticks show live in the Prices table with their contracts", async () => {
    const { page, app } = suite;
    const kite = (app as KiteApp).kite;
    expect(await connectKite(page, app.url)).toBe("/admin?kite=connected");
    await kite.until(
      () => (kite.latest?.messages.length ?? 0) >= 2,
      "GOLD's subscription",
      WAIT.timeout,
    );

    await page.goto(`${app.url}/admin/instruments`);
    await add(page, "ZINC", "ZINC");
    await add(page, "GOLD", "GOLD@next");
    // Subscribed on the open ticker connection, without reconnecting.
    await kite.until(
      () => (kite.latest?.messages ?? []).filter((m) => m.a === "subscribe").length >= 3,
      "ZINC's and GOLD@next's subscriptions",
      WAIT.timeout,
    );
    expect(kite.connections).toHaveLength(1);

    await page.getByRole("link", { name: "Back to Dashboard" }).click();
    const prices = page.getByRole("table", { name: "Prices" });
    const row = (key: string) => prices.locator(`tr[data-key='mcx:${key}']`);
    await page.locator("tr[data-key='mcx:GOLD']").waitFor(WAIT);
    kite.send(frame(tick(GOLD_FEB, 76_500), tick(GOLD_APR, 77_200), tick(ZINC_JAN, 300)));
    await row("ZINC").waitFor(WAIT);
    await expect
      .poll(() => row("ZINC").locator("[data-col='bid']").textContent(), WAIT)
      .toBe("299.50");
    expect(await row("ZINC").locator("[data-col='contract']").textContent()).toBe("ZINC99JANFUT");
    await expect
      .poll(() => row("GOLD@next").locator("[data-col='bid']").textContent(), WAIT)
      .toBe("77199.50");
    expect(await row("GOLD@next").locator("[data-col='contract']").textContent()).toBe(
      "GOLD99APRFUT",
    );
    expect(await row("GOLD").locator("[data-col='contract']").textContent()).toBe("GOLD99FEBFUT");

    // Live: the next tick moves the row.
    kite.send(frame(tick(ZINC_JAN, 301)));
    await expect
      .poll(() => row("ZINC").locator("[data-col='bid']").textContent(), WAIT)
      .toBe("300.50");
  });
});
