// DATABASE_URL selects PostgreSQL: two servers on one database share users, sessions and the
// one-active-session rule (docs/design.md §9), the first step towards several instances.
import { createDatabase, startPostgres } from "@spreadwatch/db/testing/postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "./fakes/wait.ts";
import { HttpClient } from "./http-client.ts";
import { ADMIN, manualFeed, startTestServer, type TestServer } from "./server.ts";

const SESSION_SECRET = "a-session-secret-shared-by-both-servers";

let postgres: Awaited<ReturnType<typeof startPostgres>>;
let database: Awaited<ReturnType<typeof createDatabase>>;
const servers: TestServer[] = [];

beforeAll(async () => {
  postgres = await startPostgres();
  database = await createDatabase(postgres.url);
  const env = { DATABASE_URL: database.url, SESSION_SECRET };
  // One after the other: the first creates the schema and the admin, the second finds both;
  // the second starts once the first leads (contending runs beside the start).
  const first = await startTestServer({ env: { ...env, INSTANCE_ID: "a" }, feed: manualFeed() });
  servers.push(first);
  await until(() => first.services.instance.isLeader(), "the first server to lead");
  servers.push(await startTestServer({ env: { ...env, INSTANCE_ID: "b" }, feed: manualFeed() }));
}, 120_000);

afterAll(async () => {
  for (const server of servers) await server.stop();
  await database?.drop();
  postgres?.stop();
});

describe("two servers on one PostgreSQL database", () => {
  it("report the database in health and share the admin made by the first", async () => {
    const [a, b] = servers as [TestServer, TestServer];
    expect(a.services.store.kind).toBe("postgres");
    const health = await new HttpClient(b.url).get("/api/health");
    expect(health.body.database).toMatchObject({ ok: true, kind: "postgres", state: "up" });
    expect(health.body.bus).toEqual({ state: "connected" });
    expect(b.startLog.join("\n")).not.toMatch(/Created the first admin/);
  });

  it("exactly one of them leads: the first, which took the advisory lock", async () => {
    const [a, b] = servers as [TestServer, TestServer];
    const instance = async (server: TestServer) =>
      (await new HttpClient(server.url).get("/api/health")).body.instance;
    expect(await instance(a)).toMatchObject({ leader: true });
    expect(await instance(b)).toMatchObject({ leader: false });
    expect([(await instance(a)).id, (await instance(b)).id]).toEqual(["a", "b"]);
  });

  it("a cookie from A works on B, and a second login on B ends A's session", async () => {
    const [a, b] = servers as [TestServer, TestServer];
    const onA = new HttpClient(a.url);
    expect((await onA.post("/api/auth/login", ADMIN)).status).toBe(200);
    const cookie = onA.cookieHeader;
    const sameCookieOnB = new HttpClient(b.url);
    const status = await sameCookieOnB.request("GET", "/api/auth/status", {
      headers: { cookie },
    });
    expect(status.body).toMatchObject({ status: "authenticated", user: { username: "admin" } });

    const second = await new HttpClient(b.url).post("/api/auth/login", ADMIN);
    expect(second.body.another_session_logged_out).toBe(true);
    const heartbeat = await onA.get("/api/auth/heartbeat");
    expect(heartbeat.body).toEqual({ valid: false, reason: "replaced" });
  });
});
