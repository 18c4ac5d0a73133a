import { describe, expect, it } from "vitest";
import { STORE_KINDS, useStore } from "../testing/stores.ts";

describe.each(STORE_KINDS)("telegram links (%s)", (kind) => {
  const current = useStore(kind);

  it("saves a chat, replaces it on reconnect, deletes it, and goes with its user", async () => {
    const { store } = current();
    const alice = await store.users.create({ username: "alice", passwordHash: "h" });
    expect(await store.telegramLinks.find(alice.id)).toBeUndefined();
    await store.telegramLinks.save(alice.id, "111", 10);
    await store.telegramLinks.save(alice.id, "222", 20);
    expect(await store.telegramLinks.find(alice.id)).toEqual({
      userId: alice.id,
      chatId: "222",
      connectedAt: 20,
    });
    expect(await store.telegramLinks.delete(alice.id)).toBe(true);
    expect(await store.telegramLinks.delete(alice.id)).toBe(false);
    await store.telegramLinks.save(alice.id, "333", 30);
    await store.users.delete(alice.id, 40);
    expect(await store.telegramLinks.find(alice.id)).toBeUndefined();
  });
});
