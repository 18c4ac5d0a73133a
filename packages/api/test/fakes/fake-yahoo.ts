import { FakeHttp, type Reply, type SeenRequest } from "./fake-http.ts";

export const QUOTE_PATH = "/v7/finance/quote";
export const CRUMB_PATH = "/v1/test/getcrumb";
export const CHART_PATH = "/v8/finance/chart/";

const DAY_MS = 86_400_000;

/** CME Globex: nearly round the clock, closed 21:00–22:00 UTC daily and Saturday (UTC). */
export function globexOpen(at: number): boolean {
  const d = new Date(at);
  return d.getUTCDay() !== 6 && d.getUTCHours() !== 21;
}

/**
 * Yahoo Finance's quote API as it answers today: a cookie from any page, a crumb for that
 * cookie, and quotes only with both. Results have the v7 shape (`regularMarketTime` in seconds).
 */
export class FakeYahoo extends FakeHttp {
  /** symbol → the result object Yahoo would send for it (`marketState` is REGULAR unless set). */
  readonly results = new Map<string, Record<string, unknown>>();
  crumb = "crumb-1";
  crumbsIssued = 0;
  /** Runs before each quote answer, e.g. to move prices like a live market. */
  beforeQuote: (() => void) | undefined;
  /** Chart bars (v8 chart API): symbol → the price path its bars follow; others: Not Found. */
  readonly charts = new Map<string, (minute: number) => number>();
  /** The n-th chart request (from 1) gets this reply instead: "hang", "drop", a status. */
  readonly chartReplies = new Map<number, Reply>();
  chartRequests = 0;

  override async start(): Promise<this> {
    await super.start();
    this.route("/cookie", () => ({
      status: 404,
      text: "gone",
      headers: { "set-cookie": "A3=cookie-1; Path=/; HttpOnly" },
    }));
    this.route(CRUMB_PATH, (req) => {
      if (!req.headers.cookie?.includes("A3=cookie-1")) return { status: 401, text: "" };
      this.crumbsIssued++;
      return { text: this.crumb };
    });
    this.route(QUOTE_PATH, (req) => {
      if (req.query.get("crumb") !== this.crumb || !req.headers.cookie?.includes("A3=cookie-1"))
        return {
          status: 401,
          json: {
            finance: {
              result: null,
              error: { code: "Unauthorized", description: "Invalid Crumb" },
            },
          },
        };
      this.beforeQuote?.();
      const symbols = (req.query.get("symbols") ?? "").split(",");
      const result = symbols.flatMap((s) => {
        const r = this.results.get(s);
        return r ? [{ symbol: s, quoteType: "FUTURE", marketState: "REGULAR", ...r }] : [];
      });
      return { json: { quoteResponse: { result, error: null } } };
    });
    this.route(`${CHART_PATH}*`, (req) => this.chart(req));
    return this;
  }

  /**
   * Yahoo's v8 chart API as it answers: bars in [period1, period2) of 1m (at most 7 days a
   * request, the last 30 days only) or 5m (the last 60 days), `timestamp` in seconds with
   * `indicators.quote[0]` columns; a minute without trades has nulls, as Yahoo sends them.
   */
  private chart(req: SeenRequest): Reply {
    const instead = this.chartReplies.get(++this.chartRequests);
    if (instead) return instead;
    const symbol = decodeURIComponent(req.path.slice(CHART_PATH.length));
    const path = this.charts.get(symbol);
    const error = (status: number, code: string, description: string): Reply => ({
      status,
      json: { chart: { result: null, error: { code, description } } },
    });
    if (!path) return error(404, "Not Found", "No data found, symbol may be delisted");
    const from = Number(req.query.get("period1")) * 1000;
    const to = Number(req.query.get("period2")) * 1000;
    const interval = req.query.get("interval");
    const step = interval === "1m" ? 60_000 : interval === "5m" ? 300_000 : 0;
    const now = Date.now();
    if (!step || !(to > from))
      return error(400, "Bad Request", `Invalid input - interval=${interval} is not supported`);
    if (step === 60_000 && (to - from > 7 * DAY_MS || from < now - 30 * DAY_MS))
      return error(
        422,
        "Unprocessable Entity",
        "1m data not available for startTime. Only 7 days worth of 1m granularity data are allowed to be fetched per request.",
      );
    if (from < now - 60 * DAY_MS)
      return error(422, "Unprocessable Entity", "5m data not available for startTime.");
    const timestamp: number[] = [];
    const columns = { open: [], high: [], low: [], close: [], volume: [] } as Record<
      string,
      Array<number | null>
    >;
    for (let t = Math.ceil(from / step) * step; t < to; t += step) {
      if (!globexOpen(t)) continue;
      timestamp.push(t / 1000);
      // Every 13th bar traded nothing: Yahoo keeps its time with null prices.
      const quiet = (t / step) % 13 === 0;
      const [o, c] = [path(t), path(t + step - 1000)];
      columns.open?.push(quiet ? null : o);
      columns.high?.push(quiet ? null : Math.max(o, c) + 0.2);
      columns.low?.push(quiet ? null : Math.min(o, c) - 0.2);
      columns.close?.push(quiet ? null : c);
      columns.volume?.push(quiet ? 0 : 3);
    }
    return {
      json: {
        chart: {
          result: [
            {
              meta: { symbol, dataGranularity: interval, exchangeTimezoneName: "America/New_York" },
              timestamp,
              indicators: { quote: [columns] },
            },
          ],
          error: null,
        },
      },
    };
  }

  get cookieUrl(): string {
    return `${this.url}/cookie`;
  }
}
