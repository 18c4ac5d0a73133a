// Who receives which spread's live values (docs/http-api.md "Spreads API"): everybody the built-ins
// and the shared definitions, a signed-in user also their own private ones, and nobody another
// user's, in /api/calculations, tRPC's market.calculations and the raw SSE stream alike.
import { afterEach, describe, expect, it, vi } from "vitest";
import { addTrader, startWithTrader } from "./fakes/signed-in-trader.ts";
import { HttpClient } from "./http-client.ts";
import { openRawStream } from "./raw-stream.ts";
import { ADMIN, type manualFeed, type TestServer } from "./server.ts";

let server: TestServer | undefined;
const open: Array<{ destroy(): void }> = [];
afterEach(async () => {
  for (const stream of open.splice(0)) stream.destroy();
  await server?.stop();
  server = undefined;
});

/** A raw SSE reader sending `client`'s cookie as a browser does (gzip when asked). */
function openStream(url: string, client: HttpClient, gzip = false) {
  const stream = openRawStream(url, { cookie: client.cookieHeader, gzip });
  open.push(stream);
  return { text: stream.text, calculations: () => stream.state()?.calculations };
}

/** Every leg of the definitions below priced, moved to tick `n`. */
function tick(feed: ReturnType<typeof manualFeed>, n: number) {
  feed.push({ source: "mcx", key: "GOLD", bid: 127_000 + n, ask: 127_020 + n, ts: n });
  feed.push({ source: "mcx", key: "SILVER", bid: 151_200 - n, ask: 151_260 - n, ts: n });
  feed.push({ source: "mcx", key: "GOLD@next", bid: 127_500 + n, ask: 127_540 + n, ts: n });
  feed.push({ source: "cme", key: "GC", bid: 4012 + n / 10, ask: 4012.6 + n / 10, ts: n });
  feed.push({ source: "fx", key: "USDINR", price: 88.6 + n / 1e4, ts: n });
}

const RATIO = {
  name: "Gold/silver",
  legs: [
    { name: "g", instrument: "GOLD" },
    { name: "s", instrument: "SILVER" },
  ],
  formula: "g / s",
};
const CALENDAR = {
  name: "Gold near/next",
  legs: [
    { name: "a", instrument: "GOLD" },
    { name: "b", instrument: "GOLD@next" },
  ],
  formula: "a - b",
};

async function create(client: HttpClient, body: object): Promise<string> {
  const { status, body: created } = await client.post("/api/spreads", body);
  expect(status, JSON.stringify(created)).toBe(201);
  return created.symbol;
}

const keysOf = (calculations: object | undefined) => Object.keys(calculations ?? {}).sort();

describe("a private spread's live values", () => {
  it("reach its owner over REST, tRPC and the stream, and never another user or a stranger", async () => {
    const started = await startWithTrader();
    server = started.server;
    const { admin, trader } = started;
    const other = await addTrader(server, admin, "other");
    const stranger = new HttpClient(server.url);
    const feed = server.feed as ReturnType<typeof manualFeed>;
    tick(feed, 1);

    const mine = await create(trader, RATIO);
    const theirs = await create(other, CALENDAR);
    const shared = await create(admin, { ...CALENDAR, name: "Desk calendar", shared: true });
    // Open before anything changes, and across a definition made while they are open.
    const streams = {
      trader: openStream(server.url, trader),
      traderGzip: openStream(server.url, trader, true),
      other: openStream(server.url, other),
      stranger: openStream(server.url, stranger),
    };
    tick(feed, 2);
    const late = await create(trader, { ...RATIO, name: "Silver/gold", formula: "s / g" });
    for (let n = 3; n <= 40; n++) tick(feed, n);

    const rest = async (client: HttpClient) => (await client.get("/api/calculations")).body;
    const trpc = async (client: HttpClient) =>
      (await client.get("/api/trpc/market.calculations")).body.result.data;
    const sides = (symbol: string) => [`${symbol}_BUY`, `${symbol}_SELL`];
    const builtIns = ["GC_BUY", "GC_SELL"];
    const expected = {
      trader: [...builtIns, ...sides(mine), ...sides(late), ...sides(shared)],
      other: [...builtIns, ...sides(theirs), ...sides(shared)],
      stranger: [...builtIns, ...sides(shared)],
    };
    const clients = { trader, other, stranger };
    // A spread's published value changes at most once a second (docs/http-api.md): each answer has
    // them all once GOLD@next, put in use by the calendar, has quoted and that second has passed.
    for (const [who, client] of Object.entries(clients)) {
      const want = expected[who as keyof typeof expected].sort();
      await vi.waitFor(async () => {
        expect(
          keysOf(await rest(client)).filter((k) => k !== "timestamp"),
          who,
        ).toEqual(want);
        expect(
          keysOf(await trpc(client)).filter((k) => k !== "timestamp"),
          who,
        ).toEqual(want);
      }, 10_000);
    }
    // The admin sees the built-ins and shared ones too, but not a trader's private spread.
    const adminClient = new HttpClient(server.url);
    await adminClient.post("/api/auth/login", ADMIN);
    expect(keysOf(await rest(adminClient))).not.toContain(`${mine}_BUY`);
    expect((await rest(trader))[`${mine}_BUY`]).toMatchObject({
      symbol: `${mine}_BUY`,
      legs: {
        g: { side: "ask", instrument: "GOLD" },
        s: { side: "bid", instrument: "SILVER" },
      },
    });

    // Each stream ends on what its user's /api/calculations answers.
    for (const [who, stream] of [
      ["trader", streams.trader],
      ["trader", streams.traderGzip],
      ["other", streams.other],
      ["stranger", streams.stranger],
    ] as const) {
      const client = clients[who];
      await vi.waitFor(async () => expect(stream.calculations()).toEqual(await rest(client)), {
        timeout: 15_000,
      });
    }
    // Not one byte of another user's private spread went down a stream.
    for (const symbol of [mine, late]) {
      expect(streams.other.text()).not.toContain(`"${symbol}_`);
      expect(streams.stranger.text()).not.toContain(`"${symbol}_`);
    }
    expect(streams.trader.text()).not.toContain(`"${theirs}_`);
    expect(streams.stranger.text()).not.toContain(`"${theirs}_`);

    // Deleted: it leaves its owner's open stream too.
    const id = Number(mine.slice(2));
    expect((await trader.delete(`/api/spreads/${id}`)).status).toBe(204);
    tick(feed, 41);
    await vi.waitFor(async () => {
      expect(streams.trader.calculations()).not.toHaveProperty(`${mine}_BUY`);
      expect(streams.trader.calculations()).toEqual(await rest(trader));
    }, 10_000);
  }, 60_000);
});
