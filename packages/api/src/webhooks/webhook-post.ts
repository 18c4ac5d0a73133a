import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import {
  bareHost,
  checkAddresses,
  guardedLookup,
  parseWebhookUrl,
  type Resolver,
} from "./webhook-target.ts";

export interface PostOptions {
  allowPrivate: boolean;
  resolve: Resolver;
  signal: AbortSignal;
}

/**
 * One POST, no redirects followed (a redirect could point anywhere): resolves with the status
 * as soon as the answer's head arrives. The receiver's body is never read into memory nor shown
 * to anyone, so a webhook cannot be used to read another server's pages.
 */
export function postWebhook(
  target: string,
  body: string,
  headers: Record<string, string>,
  options: PostOptions,
): Promise<number> {
  const url = parseWebhookUrl(target, options.allowPrivate);
  const host = bareHost(url);
  // net.connect does not call `lookup` for an IP literal: check it here.
  const family = isIP(host);
  if (family !== 0) checkAddresses(host, [{ address: host, family }], options.allowPrivate);
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        headers,
        // A fresh connection each time, made to the address the lookup checked.
        agent: false,
        lookup: guardedLookup(options.allowPrivate, options.resolve),
        signal: options.signal,
      },
      (res) => {
        resolve(res.statusCode ?? 0);
        res.destroy();
      },
    );
    req.once("error", reject);
    req.end(body);
  });
}
