import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manualFeed, startTestServer, type TestServer } from "./server.ts";

let server: TestServer;
const webDist = mkdtempSync(join(tmpdir(), "spreadwatch-dist-"));

beforeAll(async () => {
  mkdirSync(join(webDist, "assets"));
  writeFileSync(join(webDist, "index.html"), "<!doctype html><title>Spreadwatch</title>");
  writeFileSync(join(webDist, "assets", "app-abc123.js"), "console.log(1)");
  server = await startTestServer({ feed: manualFeed(), webDist });
});
afterAll(() => server.stop());

describe("the web app is served from the same port", () => {
  it("serves index.html at /", async () => {
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("<title>Spreadwatch</title>");
    expect(res.headers.get("cache-control")).toBe("no-cache");
  });

  it("falls back to index.html for client-side routes", async () => {
    const res = await fetch(`${server.url}/advanced-chart`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("<title>Spreadwatch</title>");
  });

  it("serves hashed assets as immutable", async () => {
    const res = await fetch(`${server.url}/assets/app-abc123.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("immutable");
  });

  it("a hashed asset that is not there is a 404, not the HTML page", async () => {
    const res = await fetch(`${server.url}/assets/app-old999.js`);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  });

  it("never answers an API path with the HTML page", async () => {
    const res = await fetch(`${server.url}/api/advanced-chart`);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
  });
});
