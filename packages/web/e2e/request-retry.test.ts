import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type APIRequestContext, request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RETRY_RESET } from "./harness.ts";

// A test's own requests (`page.request`, the same request context) meet a connection the server
// reset, as one closed for idling past Node's keep-alive timeout is just as a request goes out on
// it (harness.ts, RETRY_RESET). This server resets every request's first attempt.
let server: Server;
let url: string;
let context: APIRequestContext;
const attempts = new Map<string, number>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const seen = (attempts.get(req.url ?? "") ?? 0) + 1;
    attempts.set(req.url ?? "", seen);
    if (seen === 1) req.socket.destroy();
    else res.end("answered");
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  context = await request.newContext();
});

afterAll(async () => {
  await context.dispose();
  await new Promise((closed) => server.close(closed));
});

describe("a test's own request to a connection the server reset", () => {
  it("fails as the hog run saw it without the retry", async () => {
    await expect(context.get(`${url}/plain`)).rejects.toThrow(/socket hang up|ECONNRESET/);
  });

  it("is sent once more with RETRY_RESET, a GET and a POST alike", async () => {
    const get = await context.get(`${url}/get`, RETRY_RESET);
    expect([get.status(), await get.text(), attempts.get("/get")]).toEqual([200, "answered", 2]);
    const post = await context.post(`${url}/post`, { data: { lots: 1 }, ...RETRY_RESET });
    expect([post.status(), attempts.get("/post")]).toEqual([200, 2]);
  });
});
