import { createTestStore, type TestStore } from "@spreadwatch/db/testing";
import { beforeEach, describe, expect, it } from "vitest";
import { KiteLoginStates } from "./login-states.ts";

const LIFETIME = 600_000;
let test: TestStore;
beforeEach(() => {
  test = createTestStore();
  return () => test.cleanup();
});

describe("Kite login states", () => {
  it("are single use, for the admin who asked, within their lifetime", async () => {
    const states = new KiteLoginStates(test.store, LIFETIME);
    const token = await states.issue(1, 0);
    expect(await states.consume(token, 2, 1)).toBe(false);
    const again = await states.issue(1, 0);
    expect(await states.consume(again, 1, 1)).toBe(true);
    expect(await states.consume(again, 1, 2)).toBe(false);
    const late = await states.issue(1, 0);
    expect(await states.consume(late, 1, LIFETIME)).toBe(false);
  });

  it("a new link clears the expired ones that were never used, and only those", async () => {
    const states = new KiteLoginStates(test.store, LIFETIME);
    const unused = await states.issue(1, 0);
    const recent = await states.issue(1, LIFETIME / 2);
    await states.issue(1, LIFETIME + 1);
    expect(await test.store.keyValues.get(`kite.login-state.${unused}`)).toBeUndefined();
    expect(await test.store.keyValues.get(`kite.login-state.${recent}`)).toMatchObject({
      userId: 1,
    });
    expect(await states.consume(recent, 1, LIFETIME + 2)).toBe(true);
  });
});
