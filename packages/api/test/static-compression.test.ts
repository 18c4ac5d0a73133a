import { existsSync, readFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_WEB_DIST } from "../src/server.ts";
import { manualFeed, startTestServer, type TestServer } from "./server.ts";

// The real build (`pnpm build`), served by the real server: its .br and .gz files, picked by
// Accept-Encoding, must decompress to the very bytes of the file beside them.

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

let server: TestServer;
let script: string;
let style: string;

/** node:http, not fetch: fetch asks for gzip itself and decompresses before the test sees it. */
function raw(path: string, headers: Record<string, string> = {}, method = "GET") {
  return new Promise<RawResponse>((resolve, reject) => {
    const req = request(`${server.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

function decoded(res: RawResponse): Buffer {
  const encoding = res.headers["content-encoding"];
  if (encoding === "br") return brotliDecompressSync(res.body);
  if (encoding === "gzip") return gunzipSync(res.body);
  expect(encoding).toBeUndefined();
  return res.body;
}

const file = (path: string) => readFileSync(join(DEFAULT_WEB_DIST, path));

beforeAll(async () => {
  const html = readFileSync(join(DEFAULT_WEB_DIST, "index.html"), "utf8");
  if (!existsSync(join(DEFAULT_WEB_DIST, "index.html.br")))
    throw new Error(`${DEFAULT_WEB_DIST} has no precompressed files: run pnpm build first`);
  script = html.match(/src="(\/assets\/index-[^"]+\.js)"/)?.[1] as string;
  style = html.match(/href="(\/assets\/index-[^"]+\.css)"/)?.[1] as string;
  expect(script).toBeDefined();
  expect(style).toBeDefined();
  server = await startTestServer({ feed: manualFeed(), webDist: DEFAULT_WEB_DIST });
});
afterAll(() => server.stop());

const CHROME = "gzip, deflate, br, zstd";

describe("the built app's text files are sent compressed when the browser asks", () => {
  const cases = () => [
    [
      script,
      "text/javascript; charset=utf-8",
      script.slice(1),
      "public, max-age=31536000, immutable",
    ],
    [style, "text/css; charset=utf-8", style.slice(1), "public, max-age=31536000, immutable"],
    ["/", "text/html; charset=utf-8", "index.html", "no-cache"],
    ["/index.html", "text/html; charset=utf-8", "index.html", "no-cache"],
    // The SPA fallback: a client-side route gets index.html.
    ["/advanced-chart", "text/html; charset=utf-8", "index.html", "no-cache"],
    ["/manifest.webmanifest", "application/manifest+json", "manifest.webmanifest", "no-cache"],
  ];

  it.each([
    ["br", "br"],
    ["gzip", "gzip"],
    [CHROME, "br"],
    ["gzip, deflate", "gzip"],
  ])("Accept-Encoding: %s gets %s, decompressing to the original bytes", async (accept, want) => {
    for (const [path, type, onDisk, cache] of cases() as string[][]) {
      const res = await raw(path as string, { "accept-encoding": accept });
      expect(res.status, path).toBe(200);
      expect(res.headers["content-encoding"], path).toBe(want);
      expect(res.headers["content-type"], path).toBe(type);
      expect(res.headers.vary, path).toMatch(/accept-encoding/i);
      expect(res.headers["cache-control"], path).toBe(cache);
      expect(Number(res.headers["content-length"]), path).toBe(res.body.length);
      const original = file(onDisk as string);
      expect(res.body.length, path).toBeLessThan(original.length);
      expect(decoded(res).equals(original), path).toBe(true);
    }
  });

  it("the main script goes out at under a third of its size with brotli", async () => {
    const res = await raw(script, { "accept-encoding": CHROME });
    expect(res.body.length).toBeLessThan(file(script.slice(1)).length / 3);
  });

  it("without Accept-Encoding: the original bytes, still marked as varying by it", async () => {
    for (const [path, type, onDisk, cache] of cases() as string[][]) {
      const res = await raw(path as string);
      expect(res.status, path).toBe(200);
      expect(res.headers["content-encoding"], path).toBeUndefined();
      expect(res.headers["content-type"], path).toBe(type);
      expect(res.headers.vary, path).toMatch(/accept-encoding/i);
      expect(res.headers["cache-control"], path).toBe(cache);
      expect(res.body.equals(file(onDisk as string)), path).toBe(true);
    }
  });

  it.each([
    ["identity", undefined],
    ["*", undefined],
    ["compress, x-gzip", undefined],
    ["BR", undefined],
    ["gzip;q=0", undefined],
    ["br;q=0, gzip", "gzip"],
    [" br , gzip ", "br"],
    ["gzip, gzip, gzip", "gzip"],
    [",,;,=,", undefined],
    [`${"x".repeat(4_000)}, gzip`, "gzip"],
  ])("an odd Accept-Encoding (%s) gets only what it accepts: %s", async (accept, want) => {
    const res = await raw(script, { "accept-encoding": accept });
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe(want);
    expect(decoded(res).equals(file(script.slice(1)))).toBe(true);
  });

  it("HEAD says what GET would send, without a body", async () => {
    const br = file(`${script.slice(1)}.br`);
    const head = await raw(script, { "accept-encoding": CHROME }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers["content-encoding"]).toBe("br");
    expect(head.headers["content-length"]).toBe(String(br.length));
    expect(head.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(head.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const page = await raw("/advanced-chart", {}, "HEAD");
    expect(page.status).toBe(200);
    expect(page.body.length).toBe(0);
    expect(page.headers["content-length"]).toBe(String(file("index.html").length));
    expect(page.headers["cache-control"]).toBe("no-cache");
  });

  it("a Range request gets a slice of the original bytes, never of a compressed stream", async () => {
    const original = file(script.slice(1));
    const res = await raw(script, { "accept-encoding": CHROME, range: "bytes=100-199" });
    expect(res.status).toBe(206);
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.headers["content-range"]).toBe(`bytes 100-199/${original.length}`);
    expect(res.body.equals(original.subarray(100, 200))).toBe(true);
    const beyond = await raw(script, { "accept-encoding": "gzip", range: "bytes=999999999-" });
    expect(beyond.status).toBe(416);
    expect(beyond.headers["content-range"]).toBe(`bytes */${original.length}`);
    const nonsense = await raw(script, { "accept-encoding": "gzip", range: "lines=1-2" });
    expect([200, 206]).toContain(nonsense.status);
    expect(nonsense.headers["content-encoding"]).toBeUndefined();
    expect(original.subarray(0, nonsense.body.length).equals(nonsense.body)).toBe(true);
  });

  it("sounds and images, compressed already, go out as they are", async () => {
    for (const path of ["/sounds/beep.wav", "/icons/icon-192.png"]) {
      const res = await raw(path, { "accept-encoding": CHROME });
      expect(res.status, path).toBe(200);
      expect(res.headers["content-encoding"], path).toBeUndefined();
      expect(res.body.equals(file(path.slice(1))), path).toBe(true);
    }
  });

  it("a .br file asked for by name is a download, never labelled as JavaScript", async () => {
    const res = await raw(`${script}.br`, { "accept-encoding": CHROME });
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.headers["content-type"]).not.toMatch(/javascript/);
  });
});
