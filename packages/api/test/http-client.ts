import { request } from "node:http";

export interface JsonResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect raw JSON field by field
  body: any;
}

/**
 * A browser-like client: one cookie jar, JSON in and out, and an optional source address on the
 * loopback range (127.0.0.2, …) so throttling per address can be tested from one machine.
 */
export class HttpClient {
  private cookies = new Map<string, string>();

  constructor(
    private readonly baseUrl: string,
    private readonly localAddress?: string,
  ) {}

  get = (path: string) => this.send("GET", path);
  post = (path: string, body?: unknown) => this.send("POST", path, body);
  put = (path: string, body?: unknown) => this.send("PUT", path, body);
  delete = (path: string) => this.send("DELETE", path);

  /** Sends a raw body (e.g. malformed JSON) with a JSON content type. */
  raw(method: string, path: string, text: string) {
    return this.send(method, path, undefined, text);
  }

  /** Any request, with extra headers (Origin, Content-Type…) over the defaults. */
  request(
    method: string,
    path: string,
    options: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
  ) {
    return this.send(method, path, options.body, options.rawBody, options.headers);
  }

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  private send(
    method: string,
    path: string,
    body?: unknown,
    rawBody?: string,
    extraHeaders: Record<string, string> = {},
  ): Promise<JsonResponse> {
    const url = new URL(path, this.baseUrl);
    const payload = rawBody ?? (body === undefined ? undefined : JSON.stringify(body));
    return this.attempt(method, url, payload, extraHeaders, true);
  }

  private attempt(
    method: string,
    url: URL,
    payload: string | undefined,
    extraHeaders: Record<string, string>,
    mayRetry: boolean,
  ): Promise<JsonResponse> {
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        {
          method,
          ...(this.localAddress && { localAddress: this.localAddress }),
          headers: {
            ...(payload !== undefined && { "content-type": "application/json" }),
            ...(this.cookies.size > 0 && { cookie: this.cookieHeader }),
            ...extraHeaders,
          },
        },
        (res) => {
          this.storeCookies(res.headers["set-cookie"]);
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk) => {
            text += chunk;
          });
          res.on("end", () => {
            let parsed: unknown = text;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              // Leave non-JSON bodies as text so a test can say what it got.
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
          });
        },
      );
      req.on("error", (error: NodeJS.ErrnoException) => {
        // Node's agent keeps connections alive; one idle past the server's keep-alive timeout may
        // be closed by the server just as a request goes out on it (likelier when the test's own
        // event loop is busy, as in-process tests on a loaded box are). The server had closed that
        // connection, so the request is sent once more on a new one, as a browser does.
        if (mayRetry && req.reusedSocket && error.code === "ECONNRESET") {
          this.attempt(method, url, payload, extraHeaders, false).then(resolve, reject);
          return;
        }
        reject(error);
      });
      req.end(payload);
    });
  }

  private storeCookies(setCookie: string[] | undefined) {
    for (const line of setCookie ?? []) {
      const [pair, ...attributes] = line.split(";");
      const [name, ...rest] = (pair ?? "").split("=");
      if (!name) continue;
      const value = rest.join("=");
      const expired = attributes.some((a) => /max-age=0\b/i.test(a.trim())) || value === "";
      if (expired) this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
  }
}
