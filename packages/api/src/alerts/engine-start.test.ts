import { defaultDuties } from "@spreadwatch/core";
import { type Store, sqliteStore } from "@spreadwatch/db";
import { createTestDatabase, type TestDatabase } from "@spreadwatch/db/testing";
import { afterEach, expect, it } from "vitest";
import { MarketHub } from "../market/hub.ts";
import { AlertEngine } from "./engine.ts";

let database: TestDatabase | undefined;
afterEach(() => database?.cleanup());

/** A user whose Telegram alerts the engine watches (alerts on, a linked chat). */
async function watchedUser(store: Store) {
  const user = await store.users.create({
    username: "trader",
    passwordHash: "h",
    alertsEnabled: true,
  });
  await store.telegramLinks.save(user.id, "chat-trader", 1);
  return user;
}

const settings = {
  commodityType: "GC_BUY",
  threshold: 0,
  soundId: "beep",
  enabled: true,
  telegramNotify: true,
  maxNotifications: 2,
};

it("watches an alert whose change was heard while it read the watched alerts in", async () => {
  database = createTestDatabase();
  const store = sqliteStore(database);
  const trader = await watchedUser(store);
  // The leader's read of every watched alert is under way when another instance stores an
  // alert and says so on the bus (composition.ts subscribes before the start).
  let releaseRead!: () => void;
  const readHeld = new Promise<void>((resolve) => {
    releaseRead = resolve;
  });
  const listWatched = store.alerts.listWatched.bind(store.alerts);
  let firstRead = true;
  store.alerts.listWatched = async (userId) => {
    const read = await listWatched(userId);
    if (firstRead) {
      firstRead = false;
      await readHeld;
    }
    return read;
  };
  const engine = new AlertEngine(store, new MarketHub(defaultDuties()), () => {});
  const starting = engine.start();
  await store.alerts.create(trader.id, settings, 100);
  engine.alertsChanged(trader.id);
  releaseRead();
  await starting;
  await engine.idle();
  expect(engine.watchedCount).toBe(1);
});

it("reads a change heard before it started with every other alert, once started", async () => {
  database = createTestDatabase();
  const store = sqliteStore(database);
  const trader = await watchedUser(store);
  const engine = new AlertEngine(store, new MarketHub(defaultDuties()), () => {});
  await store.alerts.create(trader.id, settings, 100);
  engine.alertsChanged(trader.id);
  await engine.start();
  await engine.idle();
  expect(engine.watchedCount).toBe(1);
});
