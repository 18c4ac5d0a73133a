import { httpGet } from "../http.ts";

/**
 * Yahoo's quote API wants a "crumb" tied to a cookie: fetch any page that sets the cookie, then
 * ask /v1/test/getcrumb for the crumb. Both are kept until Yahoo refuses them.
 */
export class YahooCrumb {
  private current: Promise<{ crumb: string; cookie: string }> | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly cookieUrl: string,
  ) {}

  /** `signal` is the poll's: the crumb's requests share its timeout. */
  get(signal: AbortSignal): Promise<{ crumb: string; cookie: string }> {
    this.current ??= this.fetch(signal).catch((error) => {
      this.current = undefined;
      throw error;
    });
    return this.current;
  }

  clear(): void {
    this.current = undefined;
  }

  private async fetch(signal: AbortSignal): Promise<{ crumb: string; cookie: string }> {
    let cookie = "";
    try {
      // Yahoo sets the cookie on a 404 page; the status does not matter, the Set-Cookie does.
      const page = await fetch(this.cookieUrl, { redirect: "manual", signal });
      await page.body?.cancel().catch(() => {});
      cookie = page.headers
        .getSetCookie()
        .map((line) => line.split(";")[0])
        .join("; ");
    } catch (error) {
      throw new Error("could not get Yahoo's cookie", { cause: error });
    }
    const response = await httpGet(`${this.baseUrl}/v1/test/getcrumb`, {
      headers: { cookie, "user-agent": "Mozilla/5.0 (compatible; spreadwatch)" },
      signal,
    });
    const crumb = (await response.text()).trim();
    if (!crumb || crumb.length > 100 || /\s/.test(crumb))
      throw new Error("Yahoo's getcrumb answered without a crumb");
    return { crumb, cookie };
  }
}
