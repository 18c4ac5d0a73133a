import { describe, expect, it } from "vitest";
import { STORE_KINDS, useStore } from "../testing/stores.ts";
import type { PositionFields, Realise } from "./types.ts";

const GC_BUY: PositionFields = {
  spread: "GC",
  side: "BUY",
  lots: 4,
  entry: 1250.5,
  units: 100,
  legs: {
    m: { instrument: "GOLD", price: 76_000, contract: "GOLD26FEBFUT" },
    c: { instrument: "GC", price: 2650.1 },
    fx: { instrument: "USDINR", price: 84.2 },
  },
  note: "first try",
  targetInr: 12_000,
  stopInr: -5_000,
  openedAt: 1_000,
};

/** (exit − entry) × units × lots, less ₹10 a lot: enough to see which lots each close got. */
const realise: Realise = (position, lots, exit) =>
  (exit - position.entry) * position.units * lots * (position.side === "BUY" ? 1 : -1) - 10 * lots;

describe.each(STORE_KINDS)("positions (%s)", (kind) => {
  const current = useStore(kind);

  async function twoTraders() {
    const { store } = current();
    const alice = await store.users.create({ username: "alice", passwordHash: "h" });
    const bob = await store.users.create({ username: "bob", passwordHash: "h" });
    return { store, alice, bob };
  }

  it("opens a campaign's live position once, with its fills and slippage, from any instance", async () => {
    const { store, alice } = await twoTraders();
    const other = await current().openAnother();
    const live = { ...GC_BUY, executionId: "sw0123456789ab", slippageTicks: 1.5 };
    const opened = await store.positions.openLive(alice.id, live);
    expect(opened).toMatchObject({ executionId: "sw0123456789ab", slippageTicks: 1.5, lots: 4 });
    expect(await other.positions.openLive(alice.id, { ...live, lots: 9 })).toEqual(opened);
    expect(await store.positions.list(alice.id, "open")).toEqual([opened]);
    const paper = await store.positions.create(alice.id, GC_BUY);
    expect(paper).toMatchObject({ executionId: null, slippageTicks: null });
  });

  it("adds a same-side campaign to a live position at lots-weighted fills, once", async () => {
    const { store, alice } = await twoTraders();
    const other = await current().openAnother();
    const first = await store.positions.openLive(alice.id, {
      ...GC_BUY,
      lots: 1,
      entry: 1000,
      executionId: "sw000000000001",
      slippageTicks: 2,
    });
    const more = {
      ...GC_BUY,
      lots: 3,
      entry: 1040,
      legs: { ...GC_BUY.legs, m: { instrument: "GOLD", price: 76_400, contract: "GOLD26FEBFUT" } },
      executionId: "sw000000000002",
      slippageTicks: 0,
      openedAt: 5_000,
    };
    const added = await store.positions.applyLive(alice.id, first.id, more, realise);
    // (1 × 1000 + 3 × 1040) / 4; the gold leg (1 × 76000 + 3 × 76400) / 4; slippage (2 + 0) / 4.
    expect(added).toMatchObject({ id: first.id, lots: 4, entry: 1030, slippageTicks: 0.5 });
    expect(added?.legs.m).toEqual({ instrument: "GOLD", price: 76_300, contract: "GOLD26FEBFUT" });
    expect(added?.executionId).toBe("sw000000000001");
    // The same campaign again (a restart, another leader) changes nothing.
    expect(await other.positions.applyLive(alice.id, first.id, more, realise)).toEqual(added);
    expect(await store.positions.list(alice.id, "open")).toEqual([added]);
  });

  it("closes a live position's lots with an opposite campaign and opens what is beyond", async () => {
    const { store, alice } = await twoTraders();
    const held = await store.positions.openLive(alice.id, {
      ...GC_BUY,
      lots: 2,
      entry: 1000,
      executionId: "sw000000000003",
    });
    const sell = {
      ...GC_BUY,
      side: "SELL" as const,
      lots: 3,
      entry: 1010,
      executionId: "sw000000000004",
      openedAt: 6_000,
    };
    const rest = await store.positions.applyLive(alice.id, held.id, sell, realise);
    expect(rest).toMatchObject({ side: "SELL", lots: 1, entry: 1010, status: "open" });
    expect(rest?.executionId).toBe("sw000000000004");
    expect(await store.positions.find(alice.id, held.id)).toMatchObject({
      status: "closed",
      lots: 0,
    });
    // (1010 − 1000) × 100 × 2 − 20.
    expect(await store.positions.closes(alice.id, [held.id])).toMatchObject([
      { lots: 2, exit: 1010, realisedInr: 1980, closedAt: 6_000, reason: "close" },
    ]);
    expect(await store.positions.applyLive(alice.id, held.id, sell, realise)).toEqual(rest);
    expect(await store.positions.closes(alice.id)).toHaveLength(1);
    // A paper position is never changed by a campaign: the campaign opens its own.
    const paper = await store.positions.create(alice.id, GC_BUY);
    const own = await store.positions.applyLive(
      alice.id,
      paper.id,
      { ...GC_BUY, lots: 1, executionId: "sw000000000005" },
      realise,
    );
    expect(own).toMatchObject({ lots: 1, executionId: "sw000000000005" });
    expect(own?.id).not.toBe(paper.id);
    expect(await store.positions.find(alice.id, paper.id)).toEqual(paper);
  });

  it("opens, lists, finds and patches a position only for its owner; another instance sees it", async () => {
    const { store, alice, bob } = await twoTraders();
    const other = await current().openAnother();
    const stray = {
      ...GC_BUY,
      legs: { m: { instrument: "GOLD", price: 1, extra: "x" } as never },
    };
    const opened = await store.positions.create(alice.id, stray);
    expect(opened).toEqual({
      ...GC_BUY,
      legs: { m: { instrument: "GOLD", price: 1 } },
      id: opened.id,
      ownerId: alice.id,
      campaignId: opened.id,
      rolledFromId: null,
      status: "open",
      closedAt: null,
      executionId: null,
      slippageTicks: null,
    });
    expect(await other.positions.find(alice.id, opened.id)).toEqual(opened);
    expect(await other.positions.find(bob.id, opened.id)).toBeUndefined();
    expect(await store.positions.list(alice.id, "open")).toEqual([opened]);
    expect(await store.positions.list(bob.id, "open")).toEqual([]);
    expect(await store.positions.listOpen()).toEqual([opened]);
    expect(await store.positions.update(bob.id, opened.id, { note: "mine now" })).toBeUndefined();
    const patched = await store.positions.update(alice.id, opened.id, {
      note: "moved target",
      targetInr: null,
    });
    expect(patched).toEqual({ ...opened, note: "moved target", targetInr: null });
    expect(await store.positions.update(alice.id, opened.id, {})).toEqual(patched);
    expect(await store.positions.countOpenOn("GC")).toBe(1);
    expect(await store.positions.countOpenOn("SI")).toBe(0);
  });

  it("opens at most maxOpen open positions per owner, also when opens race", async () => {
    const { store, alice, bob } = await twoTraders();
    const other = await current().openAnother();
    await store.positions.create(alice.id, GC_BUY);
    const results = await Promise.all([
      store.positions.open(alice.id, GC_BUY, 3),
      other.positions.open(alice.id, GC_BUY, 3),
      store.positions.open(alice.id, GC_BUY, 3),
    ]);
    expect(results.filter((r) => r === undefined)).toHaveLength(1);
    expect(await store.positions.list(alice.id, "open")).toHaveLength(3);
    // Closed ones do not count, nor another owner's.
    const [first] = await store.positions.list(alice.id, "open");
    await store.positions.close(
      alice.id,
      first?.id as number,
      { exit: 1, closedAt: 2, reason: "close" },
      realise,
    );
    expect(await store.positions.open(alice.id, GC_BUY, 3)).toMatchObject({
      ownerId: alice.id,
      status: "open",
    });
    expect(await store.positions.open(bob.id, GC_BUY, 3)).toMatchObject({ ownerId: bob.id });
  });

  it("closes some lots, then the rest; the last close closes the position", async () => {
    const { store, alice, bob } = await twoTraders();
    const opened = await store.positions.create(alice.id, GC_BUY);
    const request = { exit: 1260.5, closedAt: 2_000, reason: "close" as const };
    expect(await store.positions.close(bob.id, opened.id, request, realise)).toEqual({
      kind: "not_found",
    });
    const half = await store.positions.close(alice.id, opened.id, { ...request, lots: 2 }, realise);
    if (half.kind !== "closed") throw new Error(half.kind);
    expect(half.close).toEqual({
      id: half.close.id,
      positionId: opened.id,
      ownerId: alice.id,
      lots: 2,
      exit: 1260.5,
      realisedInr: 2 * 1000 - 20,
      closedAt: 2_000,
      reason: "close",
    });
    expect(half.position).toEqual({ ...opened, lots: 2 });
    expect(
      await store.positions.close(alice.id, opened.id, { ...request, lots: 3 }, realise),
    ).toEqual({
      kind: "too_many",
      open: 2,
    });
    const rest = await store.positions.close(
      alice.id,
      opened.id,
      { ...request, closedAt: 3_000 },
      realise,
    );
    if (rest.kind !== "closed") throw new Error(rest.kind);
    expect(rest.close.lots).toBe(2);
    expect(rest.position).toEqual({ ...opened, lots: 0, status: "closed", closedAt: 3_000 });
    expect(await store.positions.close(alice.id, opened.id, request, realise)).toEqual({
      kind: "too_many",
      open: 0,
    });
    expect(await store.positions.list(alice.id, "open")).toEqual([]);
    expect(await store.positions.list(alice.id, "closed")).toEqual([rest.position]);
    expect((await store.positions.closes(alice.id)).map((c) => c.lots)).toEqual([2, 2]);
    expect(await store.positions.closes(bob.id)).toEqual([]);
    expect(await store.positions.countOpenOn("GC")).toBe(0);
  });

  it("never closes more lots than are open, when closes race (on two instances)", async () => {
    const { store, alice } = await twoTraders();
    const other = await current().openAnother();
    const opened = await store.positions.create(alice.id, { ...GC_BUY, lots: 3 });
    const request = { lots: 2, exit: 1251, closedAt: 2_000, reason: "close" as const };
    const results = await Promise.all([
      store.positions.close(alice.id, opened.id, request, realise),
      other.positions.close(alice.id, opened.id, request, realise),
    ]);
    expect(results.map((r) => r.kind).sort()).toEqual(["closed", "too_many"]);
    expect((await store.positions.find(alice.id, opened.id))?.lots).toBe(1);
    expect(await store.positions.closes(alice.id)).toHaveLength(1);
  });

  it("rolls: closes every lot and opens the next in the same campaign, in one step", async () => {
    const { store, alice, bob } = await twoTraders();
    const first = await store.positions.create(alice.id, GC_BUY);
    await store.positions.close(
      alice.id,
      first.id,
      { lots: 1, exit: 1251, closedAt: 1_500, reason: "close" },
      realise,
    );
    const next = (before: { lots: number }): PositionFields => ({
      ...GC_BUY,
      spread: "SP9",
      lots: before.lots,
      entry: 1300,
      openedAt: 2_000,
    });
    expect(
      await store.positions.roll(bob.id, first.id, { exit: 1, closedAt: 2_000 }, realise, next),
    ).toEqual({ kind: "not_found" });
    const rolled = await store.positions.roll(
      alice.id,
      first.id,
      { exit: 1255.5, closedAt: 2_000 },
      realise,
      next,
    );
    if (rolled.kind !== "rolled") throw new Error(rolled.kind);
    expect(rolled.close).toMatchObject({ lots: 3, reason: "roll", realisedInr: 3 * 500 - 30 });
    expect(rolled.closed).toMatchObject({ id: first.id, status: "closed", lots: 0 });
    expect(rolled.position).toMatchObject({
      spread: "SP9",
      lots: 3,
      entry: 1300,
      status: "open",
      campaignId: first.id,
      rolledFromId: first.id,
    });
    const again = await store.positions.roll(
      alice.id,
      rolled.position.id,
      { exit: 1310, closedAt: 3_000 },
      realise,
      next,
    );
    if (again.kind !== "rolled") throw new Error(again.kind);
    expect(again.position).toMatchObject({
      campaignId: first.id,
      rolledFromId: rolled.position.id,
    });
    // A failure while opening the next position leaves the old one open.
    await expect(
      store.positions.roll(
        alice.id,
        again.position.id,
        { exit: 1, closedAt: 4_000 },
        realise,
        () => {
          throw new Error("no next contract");
        },
      ),
    ).rejects.toThrow("no next contract");
    expect(await store.positions.find(alice.id, again.position.id)).toEqual(again.position);
    expect(await store.positions.closes(alice.id, [again.position.id])).toEqual([]);
  });

  it("deletes a position with its closes; deleting a user deletes theirs", async () => {
    const { store, alice, bob } = await twoTraders();
    const mistake = await store.positions.create(alice.id, GC_BUY);
    await store.positions.close(
      alice.id,
      mistake.id,
      { lots: 1, exit: 1, closedAt: 2, reason: "close" },
      realise,
    );
    expect(await store.positions.delete(bob.id, mistake.id)).toBe(false);
    expect(await store.positions.delete(alice.id, mistake.id)).toBe(true);
    expect(await store.positions.delete(alice.id, mistake.id)).toBe(false);
    expect(await store.positions.closes(alice.id)).toEqual([]);

    const kept = await store.positions.create(bob.id, GC_BUY);
    await store.positions.close(
      bob.id,
      kept.id,
      { lots: 1, exit: 1, closedAt: 2, reason: "close" },
      realise,
    );
    expect(await store.users.delete(bob.id, 5)).toBe(true);
    expect(await store.positions.listOpen()).toEqual([]);
    const { sql } = current();
    expect(await sql("SELECT id FROM position_closes")).toEqual([]);
  });
});
