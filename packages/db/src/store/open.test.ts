import { expect, inject, it } from "vitest";
import { createDatabase } from "../testing/postgres.ts";
import { openStore } from "./open.ts";

it("instances starting together on an empty PostgreSQL database migrate it once", async () => {
  const database = await createDatabase(inject("postgresUrl"));
  try {
    const stores = await Promise.all(
      [1, 2, 3].map(() => openStore({ kind: "postgres", url: database.url })),
    );
    const [first, second] = stores;
    await first?.users.create({ username: "alice", passwordHash: "h" });
    expect(await second?.users.findByUsername("ALICE")).toMatchObject({ username: "alice" });
    await Promise.all(stores.map((s) => s.close()));
  } finally {
    await database.drop();
  }
});

it("an unreachable PostgreSQL is an error at open, not at the first query", async () => {
  await expect(
    openStore({ kind: "postgres", url: "postgres://nobody@127.0.0.1:1/none" }),
  ).rejects.toThrow();
});
