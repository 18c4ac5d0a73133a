// A position is its owner's alone (docs/http-api.md "Positions API (paper)"): another trader and an
// admin get 404 for it through every REST path and every tRPC procedure that takes its id, the
// lists, the CSV and the summary show them nothing of it, and nothing they send changes it. A
// procedure or path added under positions must be classified here, or this test fails.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REST_ROUTES } from "../src/rest/routes.ts";
import { appRouter } from "../src/router.ts";
import { addTrader, signIn } from "./fakes/signed-in-trader.ts";
import type { HttpClient } from "./http-client.ts";
import { ADMIN, manualFeed, startTestServer, type TestServer } from "./server.ts";

/** The procedures that name one position by id: a stranger's call must be a 404. */
const BY_ID: Record<string, (id: number) => Record<string, unknown>> = {
  "positions.get": (id) => ({ id }),
  "positions.patch": (id) => ({ id, note: "mine now", targetInr: 1, stopInr: 0 }),
  "positions.remove": (id) => ({ id }),
  "positions.close": (id) => ({ id, lots: 1, price: 1 }),
  "positions.roll": (id) => ({ id, exit: 1, entry: 1 }),
};
/** The procedures that answer about the caller's own positions only. */
const OWN = new Set([
  "positions.list",
  "positions.open",
  "positions.closedCsv",
  "positions.summary",
  "positions.onChange",
  "positions.preview",
]);

/** A valid body for each REST path that names a position and takes one. */
const BODY_OF: Record<string, object | undefined> = {
  "PATCH /api/positions/:id": { note: "x" },
  "POST /api/positions/:id/close": { lots: 1, price: 1 },
  "POST /api/positions/:id/roll": { exit: 1, entry: 1 },
};

let server: TestServer;
let owner: HttpClient;
let other: HttpClient;
let admin: HttpClient;
let positionId: number;

beforeAll(async () => {
  server = await startTestServer({ feed: manualFeed() });
  admin = await signIn(server, ADMIN.username, ADMIN.password);
  owner = await addTrader(server, admin, "owner");
  other = await addTrader(server, admin, "other");
  const opened = await owner.post("/api/positions", {
    spread: "GC",
    side: "BUY",
    lots: 2,
    entry: 1000,
    note: "private",
  });
  expect(opened.status).toBe(201);
  positionId = opened.body.id;
  // One close, so the owner has closed trades a stranger must not see either.
  expect(
    (await owner.post(`/api/positions/${positionId}/close`, { lots: 1, price: 1100 })).status,
  ).toBe(200);
});
afterAll(() => server.stop());

const positionProcedures = () =>
  Object.entries(appRouter._def.procedures)
    .filter(([path]) => path.startsWith("positions."))
    .map(([path, p]) => ({ path, type: (p as unknown as { _def: { type: string } })._def.type }));

async function trpc(client: HttpClient, path: string, type: string, input: unknown) {
  const url = `/api/trpc/${path}`;
  return type === "query"
    ? client.get(`${url}?input=${encodeURIComponent(JSON.stringify(input))}`)
    : client.post(url, input);
}

/** The owner's position is exactly as the owner left it. */
async function untouched() {
  const seen = await owner.get(`/api/positions/${positionId}`);
  expect(seen.status).toBe(200);
  expect(seen.body).toMatchObject({
    id: positionId,
    lots: 1,
    note: "private",
    status: "open",
    targetInr: null,
  });
  expect(seen.body.closes).toHaveLength(1);
}

describe("another user's position", () => {
  it("classifies every positions procedure and REST path", () => {
    for (const { path } of positionProcedures())
      expect(path in BY_ID || OWN.has(path), path).toBe(true);
    const byIdPaths = REST_ROUTES.filter((r) => r.path.startsWith("/api/positions/:id"));
    expect(byIdPaths.map((r) => `${r.method} ${r.path}`).sort()).toEqual(
      [
        "DELETE /api/positions/:id",
        "GET /api/positions/:id",
        "PATCH /api/positions/:id",
        "POST /api/positions/:id/close",
        "POST /api/positions/:id/roll",
      ].sort(),
    );
  });

  for (const who of ["another trader", "an admin"] as const) {
    it(`is a 404 to ${who} through every REST path that names it`, async () => {
      const client = who === "an admin" ? admin : other;
      for (const route of REST_ROUTES.filter((r) => r.path.startsWith("/api/positions/:id"))) {
        const path = route.path.replace(":id", String(positionId));
        const answer = await client.request(route.method, path, {
          // A body each route takes (bodies are read strictly: an unknown field is a 400 first).
          body: BODY_OF[`${route.method} ${route.path}`],
          headers: { "idempotency-key": `${who}-${route.method}-${route.path}` },
        });
        expect([`${route.method} ${route.path}`, answer.status, answer.body?.error]).toEqual([
          `${route.method} ${route.path}`,
          404,
          "Position not found",
        ]);
      }
      // An id that exists nowhere answers the same: ids reveal nothing.
      expect((await client.get(`/api/positions/${positionId + 1000}`)).body).toEqual({
        error: "Position not found",
      });
      await untouched();
    });

    it(`is a 404 to ${who} through every tRPC procedure that names it`, async () => {
      const client = who === "an admin" ? admin : other;
      for (const { path, type } of positionProcedures()) {
        const input = BY_ID[path];
        if (!input) continue;
        const answer = await trpc(client, path, type, input(positionId));
        expect([path, answer.status, answer.body?.error?.data?.code]).toEqual([
          path,
          404,
          "NOT_FOUND",
        ]);
      }
      await untouched();
    });

    it(`shows ${who} nothing of it in lists, the CSV and the summary`, async () => {
      const client = who === "an admin" ? admin : other;
      expect((await client.get("/api/positions")).body).toEqual({ positions: [] });
      expect((await client.get("/api/positions?status=closed")).body).toEqual({ positions: [] });
      expect((await client.get("/api/positions/summary")).body).toMatchObject({
        trades: 0,
        netInr: 0,
      });
      const csv = await client.get("/api/positions/closed.csv");
      expect(String(csv.body).trimEnd().split("\r\n")).toHaveLength(1);
      const listed = await trpc(client, "positions.list", "query", { status: "closed" });
      expect(listed.body.result.data).toEqual({ positions: [] });
      const summary = await trpc(client, "positions.summary", "query", undefined);
      expect(summary.body.result.data.trades).toBe(0);
      // The owner sees theirs.
      expect(
        (await owner.get("/api/positions")).body.positions.map((p: { id: number }) => p.id),
      ).toEqual([positionId]);
      expect((await owner.get("/api/positions/summary")).body.trades).toBe(1);
    });
  }
});
