import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ResolvedAddress } from "../src/webhooks/webhook-target.ts";
import { HttpClient } from "./http-client.ts";
import { ADMIN, manualFeed, startTestServer, type TestServer } from "./server.ts";
import { signIn } from "./telegram-trader.ts";

// The settings API and the URL guard as deployed by default (no WEBHOOK_ALLOW_PRIVATE): only
// https:// URLs whose host resolves to public addresses, checked on save and again at send time.

let server: TestServer;
let alice: HttpClient;
let bob: HttpClient;
const SECRET = "alice-secret-0123456789";
/** Host name → addresses, for the resolver the server uses (a stand-in for DNS). */
const dns = new Map<string, string[]>();

beforeAll(async () => {
  server = await startTestServer({ feed: manualFeed() });
  server.services.webhooks.resolve = async (host): Promise<ResolvedAddress[]> => {
    const addresses = dns.get(host);
    if (!addresses)
      throw Object.assign(new Error(`queryA ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  const admin = await signIn(server, ADMIN.username, ADMIN.password);
  for (const username of ["alice", "bob"]) {
    const created = await admin.post("/api/auth/users", {
      username,
      password: `${username}-pass-1`,
    });
    expect(created.status).toBe(200);
  }
  alice = await signIn(server, "alice", "alice-pass-1");
  bob = await signIn(server, "bob", "bob-pass-1");
});
afterAll(() => server.stop());
beforeEach(async () => {
  dns.clear();
  dns.set("hooks.example.com", ["93.184.216.34"]);
  await alice.delete("/api/webhook");
});

const NONE = { url: null, secret: null };

describe("webhook settings", () => {
  it("saves, shows, replaces and removes the signed-in user's webhook", async () => {
    expect((await alice.get("/api/webhook")).body).toEqual(NONE);
    const saved = await alice.put("/api/webhook", {
      url: "https://hooks.example.com/a",
      secret: SECRET,
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ url: "https://hooks.example.com/a", secret: SECRET });
    expect((await alice.get("/api/webhook")).body).toEqual(saved.body);
    const replaced = await alice.put("/api/webhook", {
      url: "  https://hooks.example.com/b  ",
      secret: "x".repeat(256),
    });
    expect(replaced.body).toEqual({ url: "https://hooks.example.com/b", secret: "x".repeat(256) });
    const removed = await alice.delete("/api/webhook");
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual(NONE);
    expect((await alice.get("/api/webhook")).body).toEqual(NONE);
  });

  it.each([
    [
      "https://127.0.0.1/hook",
      /Refused: 127\.0\.0\.1 is a loopback address.*WEBHOOK_ALLOW_PRIVATE/,
    ],
    ["https://[::1]/hook", /Refused: ::1 is a loopback address/],
    ["https://10.0.0.1/hook", /private network address/],
    ["https://192.168.1.20/hook", /private network address/],
    ["https://169.254.169.254/latest/meta-data", /link-local address.*never allowed/],
    ["http://hooks.example.com/hook", /^The webhook URL must start with https:\/\/\.$/],
    ["ftp://hooks.example.com/hook", /must start with https:\/\//],
    ["not a url", /not a valid URL/],
    ["https://nowhere.example.com/hook", /nowhere\.example\.com does not exist/],
    [`https://hooks.example.com/${"a".repeat(2_030)}`, /too long \(at most 2048 characters\)/],
  ])("refuses %s with a clear reason and stores nothing", async (url, reason) => {
    const res = await alice.put("/api/webhook", { url, secret: SECRET });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(reason);
    expect((await alice.get("/api/webhook")).body).toEqual(NONE);
  });

  // IPv6 spellings of IPv4 addresses: the IPv4 address they reach is what is judged. The URL
  // parser rewrites ::127.0.0.1 as ::7f00:1, which the reason then names.
  it.each([
    ["[::127.0.0.1]", /::7f00:1 \(it reaches 127\.0\.0\.1\) is a loopback address/],
    ["[::169.254.169.254]", /::a9fe:a9fe \(it reaches 169\.254\.169\.254\) is a link-local/],
    ["[64:ff9b::7f00:1]", /\(it reaches 127\.0\.0\.1\) is a loopback address/],
    ["[64:ff9b::a9fe:a9fe]", /\(it reaches 169\.254\.169\.254\) is a link-local/],
    ["[2002:7f00:1::]", /\(it reaches 127\.0\.0\.1\) is a loopback address/],
    ["[2002:a9fe:a9fe::]", /\(it reaches 169\.254\.169\.254\) is a link-local/],
    ["[::ffff:0:a9fe:a9fe]", /\(it reaches 169\.254\.169\.254\) is a link-local/],
    ["[::ffff:127.0.0.1]", /\(it reaches 127\.0\.0\.1\) is a loopback address/],
    ["[2001::1]", /2001::1 \(it reaches 255\.255\.255\.254\) is a reserved/],
    ["[100::1]", /100::1 is a reserved, multicast or special-purpose address/],
  ])("refuses https://%s/ (IPv4 inside IPv6, or a special-purpose range)", async (host, reason) => {
    const res = await alice.put("/api/webhook", { url: `https://${host}/hook`, secret: SECRET });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^Refused: /);
    expect(res.body.error).toMatch(reason);
    expect((await alice.get("/api/webhook")).body).toEqual(NONE);
  });

  it.each([
    "https://[2606:4700:4700::1111]/hook",
    "https://[64:ff9b::808:808]/hook",
    "https://[2002:808:808::1]/hook",
    "https://8.8.8.8/hook",
  ])("accepts %s (public, or carrying a public IPv4 address)", async (url) => {
    const res = await alice.put("/api/webhook", { url, secret: SECRET });
    expect(res.status).toBe(200);
    expect(res.body.url).toBe(url);
  });

  it("refuses a host name that resolves to loopback (localhost, by the system's resolver)", async () => {
    const { resolve } = server.services.webhooks;
    const { systemResolver } = await import("../src/webhooks/webhook-target.ts");
    server.services.webhooks.resolve = systemResolver;
    try {
      const res = await alice.put("/api/webhook", {
        url: "https://localhost/hook",
        secret: SECRET,
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(
        /Refused: localhost resolves to (127\.0\.0\.1|::1) is a loopback address/,
      );
    } finally {
      server.services.webhooks.resolve = resolve;
    }
    expect((await alice.get("/api/webhook")).body).toEqual(NONE);
  });

  it("refuses a host with any private address among public ones", async () => {
    dns.set("mixed.example.com", ["93.184.216.34", "10.1.1.1"]);
    const res = await alice.put("/api/webhook", {
      url: "https://mixed.example.com/",
      secret: SECRET,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/mixed\.example\.com resolves to 10\.1\.1\.1/);
  });

  it.each([
    ["a short secret", "too-short", /secret must be 16 to 256 characters long/],
    ["a long secret", "y".repeat(257), /secret must be 16 to 256 characters long/],
    ["no secret", undefined, /Please enter a secret/],
    ["a secret with a trailing space", "0123456789abcdef ", /must not start or end with a space/],
    ["a secret with a newline", "0123456789\nabcdef", /must not contain control characters/],
  ])("refuses %s", async (_name, secret, reason) => {
    const res = await alice.put("/api/webhook", { url: "https://hooks.example.com/a", secret });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(reason);
    expect((await alice.get("/api/webhook")).body).toEqual(NONE);
  });

  it("names every problem at once: an http:// URL with a short secret", async () => {
    const res = await alice.put("/api/webhook", {
      url: "http://hooks.example.com/hook",
      secret: "too-short",
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(
      "The webhook URL must start with https://. The secret must be 16 to 256 characters long.",
    );
    const garbled = await alice.put("/api/webhook", { url: "not a url", secret: "x" });
    expect(garbled.body.error).toMatch(/not a valid URL.*The secret must be 16 to 256/);
    expect((await alice.get("/api/webhook")).body).toEqual(NONE);
  });

  it("refuses a missing URL and a body that is not an object", async () => {
    const empty = await alice.put("/api/webhook", { url: "  ", secret: SECRET });
    expect(empty.body.error).toMatch(/Please enter the webhook URL/);
    const array = await alice.raw("PUT", "/api/webhook", "[1,2]");
    expect(array.status).toBe(400);
    const broken = await alice.raw("PUT", "/api/webhook", "{");
    expect(broken.status).toBe(400);
    expect((await alice.get("/api/webhook")).body).toEqual(NONE);
  });
});

describe("strangers", () => {
  it("not signed in: 401 on every webhook route", async () => {
    const anonymous = new HttpClient(server.url);
    expect((await anonymous.get("/api/webhook")).status).toBe(401);
    expect(
      (await anonymous.put("/api/webhook", { url: "https://hooks.example.com/", secret: SECRET }))
        .status,
    ).toBe(401);
    expect((await anonymous.delete("/api/webhook")).status).toBe(401);
    expect((await anonymous.post("/api/webhook/test")).status).toBe(401);
  });

  it("another user never sees, tests or removes someone's webhook", async () => {
    await alice.put("/api/webhook", { url: "https://hooks.example.com/alice", secret: SECRET });
    expect((await bob.get("/api/webhook")).body).toEqual(NONE);
    const test = await bob.post("/api/webhook/test");
    expect(test.status).toBe(400);
    expect(test.body.error).toBe("No webhook is set. Save one first.");
    expect((await bob.delete("/api/webhook")).status).toBe(200);
    expect((await alice.get("/api/webhook")).body).toEqual({
      url: "https://hooks.example.com/alice",
      secret: SECRET,
    });
  });

  it("a cross-site PUT is refused and changes nothing", async () => {
    const res = await alice.request("PUT", "/api/webhook", {
      body: { url: "https://hooks.example.com/evil", secret: SECRET },
      headers: { origin: "http://evil.example" },
    });
    expect(res.status).toBe(403);
    expect((await alice.get("/api/webhook")).body).toEqual(NONE);
  });
});

describe("the address is checked again at send time", () => {
  const hostile = [
    "::7f00:1",
    "::a9fe:a9fe",
    "64:ff9b::7f00:1",
    "64:ff9b::a9fe:a9fe",
    "2002:7f00:1::",
    "2002:a9fe:a9fe::",
    "::ffff:0:a9fe:a9fe",
    "2001::1",
    "100::1",
  ];

  it.each(hostile)(
    "a host that resolves to %s on send is refused before connecting",
    async (address) => {
      dns.set("rebind.example.com", ["93.184.216.34"]);
      const saved = await alice.put("/api/webhook", {
        url: "https://rebind.example.com/hook",
        secret: SECRET,
      });
      expect(saved.status).toBe(200);
      dns.set("rebind.example.com", [address]);
      const test = await alice.post("/api/webhook/test");
      expect(test.status).toBe(200);
      expect(test.body).toEqual({
        ok: false,
        error: expect.stringMatching(
          new RegExp(
            `^Refused: rebind\\.example\\.com resolves to ${address.replace(/\./g, "\\.")} `,
          ),
        ),
      });
    },
  );

  it.each(hostile)(
    "a stored https://[%s]/ (saved before this check existed) is refused on send",
    async (address) => {
      const userId = (await server.services.store.users.findByUsername("alice"))?.id as number;
      await server.services.store.webhooks.save(
        userId,
        `https://[${address}]/hook`,
        SECRET,
        Date.now(),
      );
      const test = await alice.post("/api/webhook/test");
      expect(test.status).toBe(200);
      expect(test.body).toEqual({
        ok: false,
        error: expect.stringMatching(/^Refused: .* is a (loopback|link-local|reserved)/),
      });
    },
  );

  it("DNS rebinding: a host public on save and private on send is refused before connecting", async () => {
    dns.set("rebind.example.com", ["93.184.216.34"]);
    const saved = await alice.put("/api/webhook", {
      url: "https://rebind.example.com/hook",
      secret: SECRET,
    });
    expect(saved.status).toBe(200);
    dns.set("rebind.example.com", ["10.0.0.5"]);
    const test = await alice.post("/api/webhook/test");
    expect(test.status).toBe(200);
    expect(test.body).toEqual({
      ok: false,
      error: expect.stringMatching(
        /^Refused: rebind\.example\.com resolves to 10\.0\.0\.5 is a private network address/,
      ),
    });
  });
});
