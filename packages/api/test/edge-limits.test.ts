import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { floodRequest } from "./edge-raw-socket.ts";
import { HttpClient } from "./http-client.ts";
import { manualFeed, startTestServer, type TestServer } from "./server.ts";

const TWENTY_MB = 20 * 1024 * 1024;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ feed: manualFeed() });
});
afterAll(() => server.stop());

const head = (path: string, framing: string) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${framing}\r\n`;

describe("a 64 kB limit on every request body", () => {
  it.each([
    ["REST, with a Content-Length", "/api/auth/login", false],
    ["REST, chunked", "/api/alerts", true],
    ["tRPC, with a Content-Length", "/api/trpc/auth.login", false],
    ["tRPC, chunked", "/api/trpc/alerts.create", true],
  ])(
    "%s: a 20 MB body gets 413 before it is read, and the server keeps serving",
    async (_name, path, chunked) => {
      const framing = chunked
        ? "Transfer-Encoding: chunked\r\n"
        : `Content-Length: ${TWENTY_MB}\r\n`;
      const res = await floodRequest(server.port, head(path, framing), TWENTY_MB, { chunked });
      expect(res.status).toBe(413);
      expect(res.headers["content-type"]).toMatch(/^application\/json/);
      expect(JSON.parse(res.body)).toEqual({ error: expect.stringMatching(/too large/) });
      // The server stopped taking bytes long before the end (sockets buffer a few MB at most).
      expect(res.sent).toBeLessThan(TWENTY_MB);
      expect((await fetch(`${server.url}/api/prices`)).status).toBe(200);
    },
  );

  it("a body just under the limit is read and handled as usual", async () => {
    const client = new HttpClient(server.url);
    // Whitespace pads the JSON: every field of a body is read strictly, so no extra field.
    const body = `${JSON.stringify({ username: "admin", password: "nope" })}${" ".repeat(60 * 1024)}`;
    const res = await client.raw("POST", "/api/auth/login", body);
    expect(res.status).toBe(401);
    const trpc = await client.raw("POST", "/api/trpc/auth.login", body);
    expect(trpc.status).toBe(401);
  });
});
