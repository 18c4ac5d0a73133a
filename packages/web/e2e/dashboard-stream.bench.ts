// The dashboard's stream with every shipped instrument in use and quoting: bytes a real dashboard
// in Chromium receives (gzip, as the network layer counts them) per client-hour at 1400 × 900
// and 390 × 844, beside a raw client on the same server in the same minute that asks for
// everything (what the dashboard was sent before it left off-screen rows out). Printed, never
// asserted. Goal ≤ 15 MB (BENCHMARKS.md).
// Run: pnpm build && node --import tsx packages/web/e2e/dashboard-stream.bench.ts (root)
//   BENCH_DASHBOARD_MINUTES=1
import { request } from "node:http";
import { loadavg } from "node:os";
import { BUILT_IN_KEYS, SHIPPED_INSTRUMENTS } from "@spreadwatch/core";
import { rest } from "./alerts.ts";
import { ADMIN, launchBrowser, login, newPage, startApp } from "./harness.ts";

const MINUTES = Number(process.env.BENCH_DASHBOARD_MINUTES ?? 1);
const SCREENS = [
  { name: "desktop 1400 × 900", width: 1400, height: 900, hasTouch: false },
  { name: "phone 390 × 844", width: 390, height: 844, hasTouch: true },
];
const STREAM = "/api/trpc/market.onSnapshot";

/** Bytes on the wire of one stream asking for everything, gzip, until `stop` is called. */
function rawClient(url: string): { bytes: () => number; stop: () => void } {
  let bytes = 0;
  const req = request(`${url}${STREAM}`, { headers: { "accept-encoding": "gzip" } }, (res) => {
    res.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
    });
  });
  req.end();
  return { bytes: () => bytes, stop: () => req.destroy() };
}

const app = await startApp({ feed: "simulator" });
const browser = await launchBrowser();
try {
  const admin = await newPage(browser, { width: 1400, height: 900 });
  await login(admin, app.url, ADMIN.username, ADMIN.password);
  const builtIn = new Set<string>(BUILT_IN_KEYS);
  for (const spec of SHIPPED_INSTRUMENTS) {
    if (builtIn.has(spec.key)) continue;
    const added = await rest(admin, "POST", "/api/instruments", { key: spec.key });
    if (added.status !== 201) throw new Error(`${spec.key}: ${JSON.stringify(added.json)}`);
  }
  await admin.close();
  // Every instrument quoting before the minute starts.
  const quoting = async () => {
    const response = await fetch(`${app.url}/api/prices`);
    const prices = (await response.json()) as Record<string, unknown>;
    return ["cme", "mcx", "spot", "zerodha", "fx"].reduce(
      (n, section) => n + Object.keys((prices[section] as object | undefined) ?? {}).length,
      0,
    );
  };
  const deadline = Date.now() + 300_000;
  while ((await quoting()) < SHIPPED_INSTRUMENTS.length && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  const priced = await quoting();

  for (const screen of SCREENS) {
    const page = await newPage(browser, screen);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    const streams = new Set<string>();
    let bytes = 0;
    let counting = false;
    let input = "";
    cdp.on("Network.requestWillBeSent", (event) => {
      if (!event.request.url.includes(STREAM)) return;
      streams.add(event.requestId);
      input = new URL(event.request.url).searchParams.get("input") ?? "(everything)";
    });
    cdp.on("Network.dataReceived", (event) => {
      if (counting && streams.has(event.requestId)) bytes += event.encodedDataLength;
    });
    await login(page, app.url, ADMIN.username, ADMIN.password);
    await page
      .locator("tr[data-key='mcx:GOLD'] [data-col='bid']")
      .waitFor({ state: "attached", timeout: 120_000 });
    // The rows are measured and the stream narrowed (SETTLE_MS in useOffscreenKeys is 5 s).
    await page.waitForTimeout(10_000);
    const load = loadavg()[0] ?? 0;
    const raw = rawClient(app.url);
    counting = true;
    await page.waitForTimeout(MINUTES * 60_000);
    counting = false;
    raw.stop();
    const perHour = (n: number) => (n * 60) / MINUTES / 1e6;
    const left = input.startsWith("{") ? (JSON.parse(input).exceptKeys ?? []).length : 0;
    console.log(
      `dashboard stream, ${screen.name}, ${SHIPPED_INSTRUMENTS.length} instruments in use, ${priced} quoting (load ${load.toFixed(1)}): ` +
        `${perHour(bytes).toFixed(1)} MB per client-hour (goal ≤ 15) with ${left} off-screen instruments left out; ` +
        `a client asking for everything ${perHour(raw.bytes()).toFixed(1)} MB in the same ${MINUTES} min`,
    );
    console.log(
      `RESULT ${JSON.stringify({ bench: "dashboard-stream", screen: screen.name, priced, minutes: MINUTES, mbPerHour: perHour(bytes), everythingMbPerHour: perHour(raw.bytes()), leftOut: left, load })}`,
    );
    await page.context().close();
  }
} finally {
  await browser.close();
  await app.halt();
}
