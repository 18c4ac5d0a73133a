import { FakeHttp } from "./fake-http.ts";

export const QUOTE_PATH = "/v7/finance/quote";
export const CRUMB_PATH = "/v1/test/getcrumb";

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
    return this;
  }

  get cookieUrl(): string {
    return `${this.url}/cookie`;
  }
}
