import { join } from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiPath } from "../src/rest/openapi.ts";
import { REST_ROUTES } from "../src/rest/routes.ts";
import { signIn } from "./fakes/signed-in-trader.ts";
import type { HttpClient, JsonResponse } from "./http-client.ts";
import { ADMIN, FIXTURES, startTestServer, type TestServer } from "./server.ts";

// GET /api/openapi.json (docs/http-api.md): a valid OpenAPI 3.1 document of every row of the
// REST table, whose documented answers are what the server really sends.

// biome-ignore lint/suspicious/noExplicitAny: the document is read as raw JSON
type Document = any;

let server: TestServer;
let admin: HttpClient;
let document: Document;

beforeAll(async () => {
  server = await startTestServer({
    env: { FEED: "replay", REPLAY_FILE: join(FIXTURES, "hand-worked.csv"), REPLAY_SPEED: "0" },
  });
  const response = await fetch(`${server.url}/api/openapi.json`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/application\/json/);
  document = await response.json();
});
afterAll(() => server.stop());

describe("GET /api/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    expect(document.openapi).toBe("3.1.0");
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("describes every route of the REST table, and nothing else", () => {
    const documented = Object.entries(document.paths as Record<string, object>).flatMap(
      ([path, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const table = REST_ROUTES.map((route) => `${route.method} ${openApiPath(route.path)}`);
    expect(documented.sort()).toEqual([...table].sort());
  });

  it("takes each input where the route reads it, with the procedure's schema", () => {
    const stats = document.paths["/api/spread-stats/{symbol}"].get;
    expect(stats.operationId).toBe("market.stats");
    expect(stats.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual([
      "path:symbol",
      "query:days",
    ]);
    const create = document.paths["/api/alerts"].post;
    expect(create.operationId).toBe("alerts.create");
    expect(create.parameters).toEqual([expect.objectContaining({ name: "Idempotency-Key" })]);
    const body = create.requestBody.content["application/json"].schema;
    expect(body.properties).toHaveProperty("threshold");
    expect(body.properties).not.toHaveProperty("idempotencyKey");
    expect(Object.keys(document.paths["/api/instruments/{key}"].delete.responses)).toContain("204");
    expect(Object.keys(document.paths["/api/spreads"].post.responses)).toContain("201");
  });
});

describe("real answers match the documented responses", () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  let registered = false;

  // Signed in here, not before the validator's run: a connection kept alive through a long pause
  // may be closed by the server just as the client reuses it.
  beforeAll(async () => {
    admin = await signIn(server, ADMIN.username, ADMIN.password);
  });

  /** The documented JSON schema of `method path`'s answer with `status`, as a validator. */
  function validatorFor(method: string, path: string, status: number) {
    if (!registered) {
      ajv.addSchema(document, "openapi.json");
      registered = true;
    }
    const pointer = ["paths", path, method.toLowerCase(), "responses", String(status)]
      .concat(["content", "application/json", "schema"])
      .map((part) => part.replace(/~/g, "~0").replace(/\//g, "~1"))
      .join("/");
    const operation = document.paths[path]?.[method.toLowerCase()];
    expect(operation?.responses?.[String(status)], `${method} ${path} ${status}`).toBeDefined();
    return ajv.compile({ $ref: `openapi.json#/${pointer}` });
  }

  function expectDocumented(method: string, path: string, response: JsonResponse) {
    const validate = validatorFor(method, path, response.status);
    const valid = validate(response.body);
    expect(validate.errors ?? [], `${method} ${path}`).toEqual([]);
    expect(valid).toBe(true);
  }

  it("for the public reads: prices, calculations, health", async () => {
    for (const path of ["/api/prices", "/api/calculations", "/api/health"]) {
      expectDocumented("GET", path, await admin.get(path));
    }
  });

  it("for a signed-in user's reads", async () => {
    const reads: Array<[string, string]> = [
      ["/api/auth/status", "/api/auth/status"],
      ["/api/auth/heartbeat", "/api/auth/heartbeat"],
      ["/api/auth/users", "/api/auth/users"],
      ["/api/spread-stats/{symbol}", "/api/spread-stats/GC_BUY"],
      ["/api/chart-data/{commodity}", "/api/chart-data/GC_BUY?timeframe=1m"],
      ["/api/instruments", "/api/instruments"],
      ["/api/spreads", "/api/spreads"],
      ["/api/webhook", "/api/webhook"],
      ["/api/telegram/status", "/api/telegram/status"],
      ["/api/rolls", "/api/rolls"],
    ];
    for (const [documented, path] of reads) {
      const response = await admin.get(path);
      expect(response.status, path).toBe(200);
      expectDocumented("GET", documented, response);
    }
  });

  it("for writes: an alert and a spread created, then listed", async () => {
    const alert = await admin.post("/api/alerts", { commodityType: "GC_BUY", threshold: 100 });
    expect(alert.status).toBe(200);
    expectDocumented("POST", "/api/alerts", alert);
    expectDocumented("GET", "/api/alerts", await admin.get("/api/alerts"));

    const spread = await admin.post("/api/spreads", {
      name: "Gold calendar",
      legs: [
        { name: "a", instrument: "GOLD" },
        { name: "b", instrument: "SILVER" },
      ],
      formula: "a - b",
    });
    expect(spread.status).toBe(201);
    expectDocumented("POST", "/api/spreads", spread);
    expectDocumented("GET", "/api/spreads/{id}", await admin.get(`/api/spreads/${spread.body.id}`));
  });
});
