import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRequest } from "./edge-raw-socket.ts";
import { manualFeed, startTestServer, type TestServer } from "./server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ feed: manualFeed() });
});
afterAll(() => server.stop());

const get = (target: string, extra = "") =>
  `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${extra}Connection: close\r\n\r\n`;

/** The first bytes of a TLS 1.2 ClientHello, as a browser sends to https:// on a plain port. */
const TLS_CLIENT_HELLO = Buffer.from(
  "16030100c4010000c00303" +
    "ab".repeat(32) +
    "000020c02bc02fc02cc030cca9cca8c013c014009c009d002f0035000a0100",
  "hex",
);

const manyHeaders = (count: number, value: string) =>
  Array.from({ length: count }, (_, i) => `X-Filler-${i}: ${value}\r\n`).join("");

async function pricesStillAnswer() {
  const res = await fetch(`${server.url}/api/prices`);
  expect(res.status).toBe(200);
  expect(await res.json()).toHaveProperty("timestamp");
}

describe("requests that are not valid HTTP, or whose URL cannot be parsed", () => {
  it.each([
    ["an absolute-form target with a port out of range", get("http://a:99999/"), 400],
    ["an absolute-form target that is not a URL", get("http://["), 400],
    ["an absolute-form target with another scheme", get("ftp://example.com/"), 400],
    [
      "a Host header that is not a host",
      "GET / HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n",
      400,
    ],
    [
      "conflicting Content-Length and Transfer-Encoding",
      "POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      400,
    ],
    [
      "two different Content-Lengths",
      "POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nContent-Length: 9\r\n\r\n{}",
      400,
    ],
    ["TLS handshake bytes on the plain port", TLS_CLIENT_HELLO, 400],
    ["3,000 headers", get("/api/prices", manyHeaders(3_000, "x".repeat(8))), 431],
    ["300 short headers (under Node's size limit)", get("/api/prices", manyHeaders(300, "x")), 431],
  ])("%s: a JSON error, and the server keeps serving", async (_name, bytes, status) => {
    const res = await rawRequest(server.port, bytes);
    expect(res.status).toBe(status);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(res.body)).toEqual({ error: expect.any(String) });
    await pricesStillAnswer();
  });

  it.each([
    // Not an id (docs/design.md §3: only a plain decimal names a record), so no API path.
    ["/api/alerts/%E0%A4%A", 404],
    ["/api/alerts/%E0%A4%A/trigger", 404],
    ["/api/chart-data/%ZZ", 401],
    ["/api/%E0%A4%A", 404],
    ["/api/trpc/market.prices%ZZ", 404],
    ["/api/prices?x=%E0%A4%A", 200],
  ])("bad percent-encoding in %s answers %i", async (target, status) => {
    const res = await rawRequest(server.port, get(target));
    expect(res.status).toBe(status);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    await pricesStillAnswer();
  });

  it("a bad percent-encoded :id is a 404 for a signed-in user, not a crash", async () => {
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "admin", password: "admin-password-1" }),
    });
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] as string;
    const res = await rawRequest(
      server.port,
      get("/api/auth/users/%E0%A4%A", `Cookie: ${cookie}\r\n`).replace("GET", "DELETE"),
    );
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body).error).toEqual(expect.any(String));
    await pricesStillAnswer();
  });
});
