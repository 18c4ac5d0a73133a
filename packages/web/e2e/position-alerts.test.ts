// A position's target pops up on the dashboard (docs/user-guide.md "Targets and stops on
// positions"): the fixture swings GC_BUY between +128.38 and +88.38 every 2 s, so a SELL position
// on GC (marked at GC_BUY) entered at 200 swings its net by ₹4,000 (100 units a lot); a target
// halfway is reached on every swing down of GC_BUY, and the browser, marking the position from the
// stream with core's rule, shows the toast and plays the alert sound.
import { expect, it } from "vitest";
import { popup, rest } from "./alerts.ts";
import { playedSounds } from "./audio-spy.ts";
import { goldSwingSuite } from "./gold-swing.ts";

const WAIT = { timeout: 30_000 };
const ERIN = { username: "erin", password: "erin-secret", alerts_enabled: true };

const suite = goldSwingSuite(ERIN);

// biome-ignore lint/suspicious/noExplicitAny: the test reads raw JSON
type Json = any;

it("pops up when a position's net ₹ reaches its target, with the alert sound", async () => {
  const { page } = suite;
  const opened = await rest(page, "POST", "/api/positions", {
    spread: "GC",
    side: "SELL",
    lots: 1,
    entry: 200,
  });
  expect(opened.status).toBe(201);
  const id = (opened.json as Json).id as number;
  // The round trip's costs per lot, as the server marks it (its list gives them once GC_BUY is live).
  let costs: number | null = null;
  await expect
    .poll(async () => {
      const { json } = await rest(page, "GET", "/api/positions");
      costs = (json as Json).positions.find((p: Json) => p.id === id)?.costsInr ?? null;
      return costs;
    }, WAIT)
    .not.toBeNull();
  // Halfway between the two nets: (200 − 108.38) × 100 less the costs.
  const target = Math.round((200 - 108.38) * 100 - (costs ?? 0));
  const patched = await rest(page, "PATCH", `/api/positions/${id}`, { targetInr: target });
  expect(patched.status).toBe(200);
  // The dashboard reads the positions when it mounts.
  await page.reload();
  const toast = popup(page).locator("[data-notification]").first();
  await toast.waitFor(WAIT);
  expect(await toast.locator(".notification__title").textContent()).toBe("SELL 1 × GC");
  expect(await toast.locator(".notification__message").textContent()).toMatch(
    new RegExp(`^SELL 1 × GC: net ₹[\\d,.]+ reached target ₹${target.toLocaleString("en-IN")}$`),
  );
  await expect.poll(async () => (await playedSounds(page)).length, WAIT).toBeGreaterThan(0);
});
