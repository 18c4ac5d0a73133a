// Input read strictly: every request body, REST and tRPC, refuses a field it does not know with
// a 400 naming it (a misspelt "lot" must not close every lot), and only a plain decimal id names
// a record (0x1c, 29e0, +30 … are 404s that touch nothing).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { REST_ROUTES } from "../src/rest/routes.ts";
import { appRouter } from "../src/router.ts";
import { addTrader, signIn } from "./fakes/signed-in-trader.ts";
import type { HttpClient } from "./http-client.ts";
import { ADMIN, manualFeed, startTestServer, type TestServer } from "./server.ts";

let server: TestServer;
let admin: HttpClient;
let trader: HttpClient;

beforeAll(async () => {
  server = await startTestServer({ feed: manualFeed() });
  admin = await signIn(server, ADMIN.username, ADMIN.password);
  trader = await addTrader(server, admin, "trader");
});
afterAll(() => server.stop());

// biome-ignore lint/suspicious/noExplicitAny: walks zod's internal definitions
type Def = any;

/** The paths of every object inside `schema` that lets unknown keys through. */
function looseObjects(schema: z.ZodType, path: string): string[] {
  const def: Def = (schema as Def)._zod.def;
  switch (def.type) {
    case "object": {
      const strict = def.catchall?._zod.def.type === "never";
      const inner = Object.entries(def.shape as Record<string, z.ZodType>).flatMap(([key, value]) =>
        looseObjects(value, `${path}.${key}`),
      );
      return strict ? inner : [path, ...inner];
    }
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
    case "nonoptional":
      return looseObjects(def.innerType, path);
    case "pipe":
      return [...looseObjects(def.in, path), ...looseObjects(def.out, path)];
    case "array":
      return looseObjects(def.element, `${path}[]`);
    case "record":
      return looseObjects(def.valueType, `${path}{}`);
    case "union":
      return (def.options as z.ZodType[]).flatMap((option) => looseObjects(option, path));
    default:
      return [];
  }
}

describe("every procedure's input", () => {
  const procedures = Object.entries(appRouter._def.procedures).map(([name, procedure]) => {
    const def = (procedure as unknown as { _def: { type: string; inputs: z.ZodType[] } })._def;
    return { name, type: def.type, inputs: def.inputs };
  });

  it("is a strict object all the way down", () => {
    const loose = procedures.flatMap(({ name, inputs }) =>
      inputs.flatMap((input) => looseObjects(input, name)),
    );
    expect(loose).toEqual([]);
  });

  it("exists for every mutation, so a body is never silently ignored", () => {
    const without = procedures.filter((p) => p.type === "mutation" && p.inputs.length === 0);
    expect(without.map((p) => p.name)).toEqual([]);
  });
});

/** A path of the REST table with its `:name` segments filled in. */
function concrete(path: string): string {
  return path
    .replace(/^\/api\/executions\/:id/, "/api/executions/sw0123456789ab")
    .replace(":id", "1")
    .replace(":symbol", "GC_BUY")
    .replace(":commodity", "GC_BUY")
    .replace(":key", "ZINC");
}

describe("a REST body with a field the route does not take", () => {
  const bodyRoutes = REST_ROUTES.filter((r) => r.method !== "GET" && r.method !== "DELETE");

  it.each(bodyRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))(
    "%s answers 400 naming it",
    async (_, route) => {
      const res = await admin.request(route.method, concrete(route.path), {
        body: { notAField: 1 },
      });
      expect(res).toMatchObject({ status: 400, body: { error: 'Unknown field "notAField"' } });
    },
  );

  it("and a body that is not an object is a 400 too", async () => {
    const res = await trader.request("POST", "/api/positions", { body: [{ spread: "GC" }] });
    expect(res).toMatchObject({ status: 400, body: { error: expect.stringMatching(/object/) } });
    const nested = await trader.post("/api/spreads", {
      name: "Gold calendar",
      legs: [{ name: "a", instrument: "GOLD", side: "BUY" }],
      formula: "a",
    });
    expect(nested).toMatchObject({ status: 400, body: { error: 'Unknown field "legs.0.side"' } });
  });
});

describe("a misspelt close", () => {
  it("closes nothing: lot, Lots, qty and 'lots ' are each refused by name", async () => {
    const opened = await trader.post("/api/positions", {
      spread: "GC",
      side: "BUY",
      lots: 5,
      entry: 10,
    });
    expect(opened.status).toBe(201);
    const { id } = opened.body;
    for (const field of ["lot", "Lots", "qty", "lots "]) {
      const res = await trader.post(`/api/positions/${id}/close`, { [field]: 1 });
      expect(res).toMatchObject({ status: 400, body: { error: `Unknown field "${field}"` } });
    }
    const two = await trader.post(`/api/positions/${id}/close`, { lot: 1, qty: 2 });
    expect(two.body.error).toBe('Unknown fields "lot", "qty"');
    // The same over tRPC.
    const trpc = await trader.post("/api/trpc/positions.close", { id, lot: 1 });
    expect(trpc.status).toBe(400);
    expect(trpc.body.error.message).toBe('Unknown field "lot"');
    const after = await trader.get(`/api/positions/${id}`);
    expect(after.body).toMatchObject({ lots: 5, status: "open" });
    expect(await server.services.store.positions.closes(2, [id])).toEqual([]);
  });
});

/** Every other spelling `Number()` reads as `id`. */
function respellings(id: number): string[] {
  return [
    `0x${id.toString(16)}`,
    `${id}e0`,
    `+${id}`,
    `%20${id}`,
    `${id}.0`,
    `0b${id.toString(2)}`,
    `0o${id.toString(8)}`,
    `0${id}`,
    `${id}%20`,
  ];
}

describe("ids are canonical", () => {
  it("no other spelling of an existing id names it on any :id route, and nothing changes", async () => {
    const position = (
      await trader.post("/api/positions", { spread: "GC", side: "BUY", lots: 3, entry: 10 })
    ).body.id as number;
    const spread = (
      await trader.post("/api/spreads", {
        name: "Gold less silver",
        legs: [
          { name: "a", instrument: "GOLD" },
          { name: "b", instrument: "SILVER" },
        ],
        formula: "a - b",
      })
    ).body.id as number;
    const alert = (await trader.post("/api/alerts", { commodityType: "GC_BUY", threshold: 100 }))
      .body.alert.id as number;
    const user = (
      await admin.post("/api/auth/users", { username: "spare", password: "spare-pass-1" })
    ).body.user.id as number;
    const idOf: Record<string, number> = {
      "/api/positions/": position,
      "/api/spreads/": spread,
      "/api/alerts/": alert,
      "/api/auth/users/": user,
      "/api/admin/live-orders/users/": user,
    };
    // A live-order campaign's id is a tag stem, not a number (its one spelling is the adapter's).
    const idRoutes = REST_ROUTES.filter(
      (r) => r.path.includes(":id") && !r.path.startsWith("/api/executions/"),
    );
    expect(idRoutes.length).toBeGreaterThanOrEqual(13);
    for (const route of idRoutes) {
      const [prefix] = route.path.split(":id") as [string];
      const client =
        prefix.startsWith("/api/auth/users") || prefix.startsWith("/api/admin/") ? admin : trader;
      const id = idOf[prefix] as number;
      for (const spelling of respellings(id)) {
        const path = concrete(route.path.replace(":id", spelling));
        const res = await client.request(route.method, path, {
          ...(route.method !== "GET" && route.method !== "DELETE" && { body: {} }),
        });
        expect({ route: `${route.method} ${path}`, status: res.status }).toEqual({
          route: `${route.method} ${path}`,
          status: 404,
        });
      }
    }
    expect((await trader.get(`/api/positions/${position}`)).body).toMatchObject({
      lots: 3,
      status: "open",
    });
    expect((await trader.get(`/api/spreads/${spread}`)).status).toBe(200);
    expect((await trader.get("/api/alerts")).body.alerts.map((a: { id: number }) => a.id)).toEqual([
      alert,
    ]);
    expect(
      (await admin.get("/api/auth/users")).body.users.some((u: { id: number }) => u.id === user),
    ).toBe(true);
    // The built-in spreads keep their negative ids.
    expect((await trader.get("/api/spreads/-1")).body).toMatchObject({ id: -1, symbol: "GC" });
  });
});
