import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURES, startTestServer, type TestServer } from "./server.ts";

// Expected values worked by hand (40-digit decimal arithmetic) from fixtures/hand-worked.csv,
// USDINR 84, parity = cme × factor × 84 × (1 + duty); GC/SI duty 6 %, others 0 %.
//   GC factor 10/31.1034768:   parity(2000.0) = 57254.0494894127, parity(2000.5) = 57268.3630017851
//   SI factor 1000/31.1034768: parity(25.000) = 71567.5618617659, parity(25.010) = 71596.1888865106
//   HG factor 2.20462262185:   parity(4.0000) = 740.7532009416,     parity(4.0010) = 740.9383892418354
//   NG, CL factor 1:           252.000 / 252.168;                    5880.00 / 5881.68
const EXPECTED = {
  GC_BUY: { cme: 2000.0, mcx: 57320, parity: 57254.0494894127, spread: 65.950510587292 },
  GC_SELL: { cme: 2000.5, mcx: 57300, parity: 57268.3630017851, spread: 31.636998214939 },
  SI_BUY: { cme: 25.0, mcx: 72030, parity: 71567.5618617659, spread: 462.438138234115 },
  SI_SELL: { cme: 25.01, mcx: 72000, parity: 71596.1888865106, spread: 403.811113489409 },
  HG_BUY: { cme: 4.0, mcx: 741.6, parity: 740.7532009416, spread: 0.8467990584 },
  HG_SELL: { cme: 4.001, mcx: 741.1, parity: 740.9383892418354, spread: 0.1616107581646 },
  NG_BUY: { cme: 3.0, mcx: 252.5, parity: 252.0, spread: 0.5 },
  NG_SELL: { cme: 3.002, mcx: 252.3, parity: 252.168, spread: 0.132 },
  CL_BUY: { cme: 70.0, mcx: 5878, parity: 5880.0, spread: -2.0 },
  CL_SELL: { cme: 70.02, mcx: 5875, parity: 5881.68, spread: -6.68 },
} as const;

const t = (iso: string) => Date.parse(iso);

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    env: { FEED: "replay", REPLAY_FILE: join(FIXTURES, "hand-worked.csv"), REPLAY_SPEED: "0" },
  });
});
afterAll(() => server.stop());

async function getJson(path: string) {
  const res = await fetch(`${server.url}${path}`);
  // biome-ignore lint/suspicious/noExplicitAny: the test inspects raw JSON field by field
  const body: any = await res.json();
  return { status: res.status, type: res.headers.get("content-type"), body };
}

describe("GET /api/calculations", () => {
  it("has one entry per spread symbol with the hand-worked values, and the newest quote time", async () => {
    const { status, type, body } = await getJson("/api/calculations");
    expect(status).toBe(200);
    expect(type).toMatch(/application\/json/);
    expect(Object.keys(body).sort()).toEqual([...Object.keys(EXPECTED), "timestamp"].sort());
    expect(body.timestamp).toBe(t("2026-11-20T09:15:01.400Z"));
    for (const [symbol, want] of Object.entries(EXPECTED)) {
      const entry = body[symbol];
      expect(Object.keys(entry).sort()).toEqual([
        "cme",
        "mcx",
        "parity",
        "perLot",
        "spread",
        "symbol",
        "usdinr",
      ]);
      expect(entry.symbol).toBe(symbol);
      expect(entry.usdinr).toBe(84);
      expect(entry.cme).toBe(want.cme);
      expect(entry.mcx).toBe(want.mcx);
      // Nine decimals: far below the paisa, and above float noise at these magnitudes.
      expect(entry.parity).toBeCloseTo(want.parity, 9);
      expect(entry.spread).toBeCloseTo(want.spread, 9);
    }
  });

  it("needs no session and is never cached", async () => {
    const res = await fetch(`${server.url}/api/calculations`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });
});

describe("GET /api/prices", () => {
  it("has the docs/design.md §3 shape, field by field", async () => {
    const { status, body } = await getJson("/api/prices");
    expect(status).toBe(200);
    expect(body).toEqual({
      cme: {
        GC: { bid: 2000, ask: 2000.5, timestamp: t("2026-11-20T09:15:00.100Z") },
        SI: { bid: 25, ask: 25.01, timestamp: t("2026-11-20T09:15:00.300Z") },
        HG: { bid: 4, ask: 4.001, timestamp: t("2026-11-20T09:15:00.500Z") },
        NG: { bid: 3, ask: 3.002, timestamp: t("2026-11-20T09:15:00.700Z") },
        CL: { bid: 70, ask: 70.02, timestamp: t("2026-11-20T09:15:00.900Z") },
      },
      mcx: {
        GOLD: { bid: 57300, ask: 57320, timestamp: t("2026-11-20T09:15:00.200Z") },
        SILVER: { bid: 72000, ask: 72030, timestamp: t("2026-11-20T09:15:00.400Z") },
        COPPER: { bid: 741.1, ask: 741.6, timestamp: t("2026-11-20T09:15:00.600Z") },
        NATURALGAS: { bid: 252.3, ask: 252.5, timestamp: t("2026-11-20T09:15:00.800Z") },
        CRUDEOIL: { bid: 5875, ask: 5878, timestamp: t("2026-11-20T09:15:01.000Z") },
      },
      spot: {
        XAUUSD: { price: 1985.25, timestamp: t("2026-11-20T09:15:01.100Z") },
        // This row's ts is written as epoch milliseconds in the fixture.
        XAGUSD: { price: 24.8, timestamp: t("2026-11-20T09:15:01.200Z") },
      },
      zerodha: {
        nifty50: { price: 26000.05, timestamp: t("2026-11-20T09:15:01.300Z") },
        giftnifty: { price: 26080.55, timestamp: t("2026-11-20T09:15:01.400Z") },
      },
      fx: { USDINR: { price: 84, timestamp: t("2026-11-20T09:15:00.000Z") } },
      timestamp: t("2026-11-20T09:15:01.400Z"),
    });
  });
});

describe("unknown API paths", () => {
  it("answer 404 with a JSON error, never an HTML page", async () => {
    const { status, type, body } = await getJson("/api/does-not-exist");
    expect(status).toBe(404);
    expect(type).toMatch(/application\/json/);
    expect(body).toEqual({ error: "No API endpoint at /api/does-not-exist" });
  });

  it("answer 405 for a known path with the wrong method", async () => {
    const res = await fetch(`${server.url}/api/prices`, { method: "POST" });
    expect(res.status).toBe(405);
    expect(await res.json()).toEqual({ error: "POST is not allowed on /api/prices" });
  });
});
