import { lookup } from "node:dns/promises";
import type { LookupFunction } from "node:net";
import { isIP } from "node:net";
import { WEBHOOK_URL_MAX_LENGTH } from "@spreadwatch/core";
import { addressRefusal } from "./address-class.ts";

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Host name → addresses; the system's resolver unless a test injects another. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) =>
  lookup(hostname, { all: true, verbatim: true });

/** A webhook URL (or the address it resolves to) that may not be used: the message says why. */
export class WebhookRefusedError extends Error {
  override name = "WebhookRefusedError";
}

/** The URL's host as net.connect wants it: IPv6 literals without their brackets. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/** Syntax and scheme only; the addresses are checked by `checkAddresses`. */
export function parseWebhookUrl(text: string, allowPrivate: boolean): URL {
  if (text.length > WEBHOOK_URL_MAX_LENGTH) {
    throw new WebhookRefusedError(
      `The webhook URL is too long (at most ${WEBHOOK_URL_MAX_LENGTH} characters).`,
    );
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WebhookRefusedError(
      "The webhook URL is not a valid URL (it should look like https://example.com/hook).",
    );
  }
  if (url.protocol === "https:") return url;
  if (url.protocol === "http:") {
    if (allowPrivate) return url;
    throw new WebhookRefusedError("The webhook URL must start with https://.");
  }
  throw new WebhookRefusedError(
    `The webhook URL must start with https://${allowPrivate ? " (or http://)" : ""}.`,
  );
}

/** Throws when any of the addresses may not be used (a round-robin may mix good and bad). */
export function checkAddresses(
  host: string,
  addresses: readonly ResolvedAddress[],
  allowPrivate: boolean,
): void {
  if (addresses.length === 0) throw new WebhookRefusedError(`${host} has no address.`);
  for (const { address } of addresses) {
    const refusal = addressRefusal(address, allowPrivate);
    if (refusal) {
      const via = address === host ? "" : `${host} resolves to `;
      throw new WebhookRefusedError(`Refused: ${via}${refusal}.`);
    }
  }
}

function resolveFailure(host: string, error: unknown): WebhookRefusedError {
  const code = (error as { code?: string }).code;
  const reason =
    code === "ENOTFOUND" || code === "ENODATA" ? "does not exist" : "could not be resolved";
  return new WebhookRefusedError(`${host} ${reason} (${code ?? String(error)}).`);
}

/** Resolves the URL's host (an IP literal as itself) and checks every address it has. */
export async function checkedAddresses(
  url: URL,
  allowPrivate: boolean,
  resolve: Resolver,
): Promise<ResolvedAddress[]> {
  const host = bareHost(url);
  const family = isIP(host);
  let addresses: ResolvedAddress[];
  if (family !== 0) addresses = [{ address: host, family }];
  else {
    try {
      addresses = await resolve(host);
    } catch (error) {
      throw resolveFailure(host, error);
    }
  }
  checkAddresses(host, addresses, allowPrivate);
  return addresses;
}

/**
 * A `lookup` for http(s).request that checks what it resolved before the socket connects, so
 * the connection goes to the very address that was checked: a DNS answer changed since the URL
 * was saved (DNS rebinding) cannot slip a private address in.
 */
export function guardedLookup(allowPrivate: boolean, resolve: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    const done = callback as (
      error: Error | null,
      address: string | ResolvedAddress[],
      family?: number,
    ) => void;
    resolve(hostname).then(
      (addresses) => {
        try {
          checkAddresses(hostname, addresses, allowPrivate);
        } catch (error) {
          done(error as Error, "", 0);
          return;
        }
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = wanted ? addresses.filter((a) => a.family === wanted) : addresses;
        const first = usable[0];
        if (!first) {
          done(new WebhookRefusedError(`${hostname} has no IPv${wanted} address.`), "", 0);
          return;
        }
        if (options.all) done(null, usable);
        else done(null, first.address, first.family);
      },
      (error: unknown) => done(resolveFailure(hostname, error), "", 0),
    );
  };
}
