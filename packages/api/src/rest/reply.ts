/**
 * What a REST route returns when 200 + JSON will not do: /api/health's 503 with its body, or the
 * Kite login's redirects. Procedures stay plain tRPC; only the REST table wraps their results.
 */
export class RestReply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
    /** Set: `body` is this type's text as it is, not JSON. */
    readonly contentType?: string,
  ) {}

  /** A text body (the closed positions' CSV). */
  static text(
    status: number,
    text: string,
    contentType: string,
    headers: Record<string, string> = {},
  ): RestReply {
    return new RestReply(status, text, headers, contentType);
  }

  static redirect(location: string): RestReply {
    return new RestReply(302, undefined, { location });
  }
}
