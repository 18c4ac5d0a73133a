import { describe, expect, it } from "vitest";
import { rest } from "./alerts.ts";
import { CROSSED_GOLD, crossedGoldFixture } from "./fixtures.ts";
import { startApp } from "./harness.ts";
import { mySpreads, spreadGroup } from "./spreads.ts";
import { signedInSuite } from "./suite.ts";

// A spread of one's own greys like a built-in row when a leg cannot be trusted (docs/user-guide.md
// "Spreads of your own"): here MCX GOLD's book is crossed, so a gold/silver ratio has no value and
// says why.
const RITA = { username: "rita", password: "rita-secret", alerts_enabled: true };

const suite = signedInSuite({
  app: () => startApp(crossedGoldFixture()),
  users: [RITA],
  as: RITA,
  waitFor: (page) => mySpreads(page).getByRole("button", { name: "New spread" }),
});

describe("My spreads with a crossed leg", () => {
  it("greys both rows, names the crossed leg and shows no value", async () => {
    const { page } = suite;
    const created = await rest(page, "POST", "/api/spreads", {
      name: "Gold/Silver",
      legs: [
        { name: "g", instrument: "GOLD" },
        { name: "s", instrument: "SILVER" },
      ],
      formula: "g / s",
    });
    expect(created.status).toBe(201);
    const symbol = created.json.symbol as string;
    await page.reload();
    const group = spreadGroup(page, "Gold/Silver");
    for (const side of ["BUY", "SELL"]) {
      const row = group.locator(`tr[data-symbol='${symbol}_${side}']`);
      await expect.poll(() => row.getAttribute("data-greyed")).toBe("true");
      expect(await row.getAttribute("class")).toContain("row--greyed");
      expect(await row.locator(".leg-warning").getAttribute("data-reason")).toBe("crossed");
      expect(await row.locator(".leg-warning").getAttribute("aria-label")).toBe(
        `Not to be trusted now: g (GOLD) book crossed (bid ${CROSSED_GOLD.bid.toFixed(2)} > ask ${CROSSED_GOLD.ask.toFixed(2)})`,
      );
      expect(await row.locator("[data-col='spread']").textContent()).toBe("—");
    }
  });
});
