import { get, type IncomingMessage } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { openPausedStream } from "./fakes/paused-stream.ts";
import { pumpQuotes } from "./fakes/quote-pump.ts";
import { eventually, until } from "./fakes/wait.ts";
import { manualFeed, startTestServer, type TestServer } from "./server.ts";

const STREAM_PATH = "/api/trpc/market.onSnapshot";
const OTHER_ADDRESS = "127.0.0.2";

let server: TestServer | undefined;
const open: Array<{ destroy(): void }> = [];
afterEach(async () => {
  for (const stream of open.splice(0)) stream.destroy();
  await server?.stop();
  server = undefined;
});

interface Stream {
  status: number;
  headers: IncomingMessage["headers"];
  /** Everything received so far (a 429's JSON body, or the SSE frames). */
  text(): string;
}

/** Opens `market.onSnapshot` from `localAddress`, reading whatever comes, until the test ends. */
function openStream(
  url: string,
  localAddress = "127.0.0.1",
  headers: Record<string, string> = {},
): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const options = { agent: false, localAddress, headers };
    const request = get(`${url}${STREAM_PATH}`, options, (res) => {
      let received = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        received += chunk;
      });
      res.on("error", () => {});
      resolve({ status: res.statusCode ?? 0, headers: res.headers, text: () => received });
    });
    request.on("error", reject);
    open.push(request);
  });
}

describe("live streams per client address", () => {
  it("refuses the 21st stream from one address with a 429, while another address connects", async () => {
    server = await startTestServer({ feed: manualFeed() });
    const { url } = server;
    const streams = await Promise.all(Array.from({ length: 20 }, () => openStream(url)));
    expect(streams.map((s) => s.status)).toEqual(Array(20).fill(200));

    const refused = await openStream(server.url);
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toMatch(/^\d+$/);
    expect(refused.headers["content-type"]).toMatch(/^application\/json/);
    await until(() => refused.text().endsWith("}"), "the 429 body");
    expect(JSON.parse(refused.text())).toEqual({ error: expect.stringMatching(/too many/i) });

    const other = await openStream(server.url, OTHER_ADDRESS);
    expect(other.status).toBe(200);
  });

  it("frees a slot when a stream closes", async () => {
    server = await startTestServer({ feed: manualFeed(), env: { STREAM_LIMIT_PER_ADDRESS: "2" } });
    await openStream(server.url);
    await openStream(server.url);
    expect((await openStream(server.url)).status).toBe(429);
    open.shift()?.destroy();
    const { url } = server;
    await eventually(
      () => openStream(url),
      (stream) => stream.status === 200,
      "a stream to be accepted once one closed",
    );
  });

  it("has no limit when STREAM_LIMIT_PER_ADDRESS is 0", async () => {
    server = await startTestServer({ feed: manualFeed(), env: { STREAM_LIMIT_PER_ADDRESS: "0" } });
    const { url } = server;
    const streams = await Promise.all(Array.from({ length: 30 }, () => openStream(url)));
    expect(streams.map((s) => s.status)).toEqual(Array(30).fill(200));
  });
});

describe("the client address behind a reverse proxy", () => {
  const via = (client: string) => ({ "x-forwarded-for": client });

  it("is the X-Forwarded-For entry the trusted proxy appended", async () => {
    server = await startTestServer({
      feed: manualFeed(),
      env: { STREAM_LIMIT_PER_ADDRESS: "1", TRUST_PROXY: "1" },
    });
    expect((await openStream(server.url, "127.0.0.1", via("203.0.113.7"))).status).toBe(200);
    expect((await openStream(server.url, "127.0.0.1", via("203.0.113.8"))).status).toBe(200);
    // A client cannot escape its limit by writing its own entry further left.
    const forged = via("198.51.100.1, 203.0.113.7");
    expect((await openStream(server.url, "127.0.0.1", forged)).status).toBe(429);
  });

  it("is the socket's address when no proxy is trusted, whatever the header says", async () => {
    server = await startTestServer({ feed: manualFeed(), env: { STREAM_LIMIT_PER_ADDRESS: "1" } });
    expect((await openStream(server.url, "127.0.0.1", via("203.0.113.7"))).status).toBe(200);
    expect((await openStream(server.url, "127.0.0.1", via("203.0.113.8"))).status).toBe(429);
  });
});

describe("a stream client that stops reading", () => {
  it("is dropped once its socket stays blocked for the window, and the others keep receiving", async () => {
    const feed = manualFeed();
    server = await startTestServer({
      feed,
      // One stream per address: the non-reading client's slot comes back only when it is dropped.
      env: { STREAM_LIMIT_PER_ADDRESS: "1", STREAM_BLOCKED_DROP_SECONDS: "1" },
    });
    const stuck = await openPausedStream(`${server.url}${STREAM_PATH}`);
    open.push(stuck);
    const reader = await openStream(server.url, OTHER_ADDRESS);
    expect(reader.status).toBe(200);
    expect((await openStream(server.url)).status).toBe(429);

    const stopPumping = pumpQuotes(feed);
    try {
      const { url } = server;
      await eventually(
        () => openStream(url),
        (stream) => stream.status === 200,
        "the non-reading client's slot to be freed",
        20_000,
      );
    } finally {
      stopPumping();
    }

    // Dropped, not merely counted out: reading it now runs into the end of the stream.
    stuck.resume();
    expect(await stuck.ended).toBe(0);

    feed.push({ source: "fx", key: "USDINR", price: 99.1234, ts: 1e9 });
    await until(() => reader.text().includes("99.1234"), "the reading client to get a new quote");
  }, 30_000);
});
