import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpClient } from "./http-client.ts";
import { ADMIN, manualFeed, startTestServer, type TestServer } from "./server.ts";

let server: TestServer;
let victim: HttpClient;
const ALERT = { commodityType: "GC_BUY", threshold: 1234 };
const EVIL = "http://evil.example";

beforeAll(async () => {
  server = await startTestServer({ feed: manualFeed() });
  victim = new HttpClient(server.url);
  expect((await victim.post("/api/auth/login", ADMIN)).status).toBe(200);
});
afterAll(() => server.stop());

async function alertCount(): Promise<number> {
  const list = await victim.get("/api/alerts");
  expect(list.status).toBe(200);
  expect(Array.isArray(list.body.alerts)).toBe(true);
  return list.body.alerts.length;
}

describe("writes from another site are refused and change nothing", () => {
  it("the form attack: a cross-site text/plain POST to /api/alerts with the victim's cookie", async () => {
    const before = await alertCount();
    const res = await victim.request("POST", "/api/alerts", {
      rawBody: JSON.stringify(ALERT),
      headers: { origin: EVIL, "content-type": "text/plain", "sec-fetch-site": "cross-site" },
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: expect.any(String) });
    expect(await alertCount()).toBe(before);
  });

  it.each([
    ["an Origin of another site", { origin: EVIL }],
    ["the opaque Origin of a sandboxed frame", { origin: "null" }],
    ["the same host on another port", { origin: "http://127.0.0.1:1" }],
    ["Sec-Fetch-Site: cross-site without an Origin", { "sec-fetch-site": "cross-site" }],
  ])("%s: 403 on REST and tRPC, with a JSON body", async (_name, headers) => {
    const before = await alertCount();
    const rest = await victim.request("POST", "/api/alerts", { body: ALERT, headers });
    expect(rest.status).toBe(403);
    expect(rest.body.error).toEqual(expect.any(String));
    const trpc = await victim.request("POST", "/api/trpc/alerts.create", { body: ALERT, headers });
    expect(trpc.status).toBe(403);
    expect(await alertCount()).toBe(before);
  });

  it("PUT and DELETE from another site leave the alert as it was", async () => {
    const created = await victim.post("/api/alerts", ALERT);
    expect(created.status).toBe(200);
    const id = created.body.alert.id;
    const headers = { origin: EVIL };
    const put = await victim.request("PUT", `/api/alerts/${id}`, {
      body: { threshold: 1 },
      headers,
    });
    expect(put.status).toBe(403);
    expect((await victim.request("DELETE", `/api/alerts/${id}`, { headers })).status).toBe(403);
    const list = await victim.get("/api/alerts");
    expect(JSON.stringify(list.body)).toContain('"threshold":1234');
  });

  it("the app's own pages (same Origin) and scripts without an Origin may write", async () => {
    const before = await alertCount();
    const own = await victim.request("POST", "/api/alerts", {
      body: ALERT,
      headers: { origin: server.url, "sec-fetch-site": "same-origin" },
    });
    expect(own.status).toBe(200);
    const script = await victim.post("/api/alerts", ALERT);
    expect(script.status).toBe(200);
    expect(await alertCount()).toBe(before + 2);
  });
});

describe("write bodies must be JSON", () => {
  it.each([
    ["text/plain", "text/plain"],
    ["a form", "application/x-www-form-urlencoded"],
    ["multipart", "multipart/form-data; boundary=x"],
  ])("%s body: 415 and nothing created, REST and tRPC", async (_name, type) => {
    const before = await alertCount();
    const rawBody = JSON.stringify(ALERT);
    const headers = { "content-type": type };
    const rest = await victim.request("POST", "/api/alerts", { rawBody, headers });
    expect(rest.status).toBe(415);
    expect(rest.body.error).toMatch(/JSON/);
    const trpc = await victim.request("POST", "/api/trpc/alerts.create", { rawBody, headers });
    expect(trpc.status).toBe(415);
    expect(await alertCount()).toBe(before);
  });

  it("a POST without a body needs no content type (logout from a script)", async () => {
    const client = new HttpClient(server.url);
    expect((await client.request("POST", "/api/auth/logout")).status).toBe(200);
  });

  it("JSON that does not parse is a 400 with a sentence", async () => {
    const res = await victim.raw("POST", "/api/alerts", "{not json");
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "Request body is not valid JSON" });
  });
});
