import { isIPv6 } from "node:net";
import type { LoginAttemptVerdict, LoginLimits, Store } from "@spreadwatch/db";
import { TRPCError } from "@trpc/server";
import { ErrorWithFields } from "../errors.ts";

/**
 * 5 attempts per (username, address) per 15 minutes stops guessing one account; 50 per address
 * stops one address spraying many usernames. Neither is per username alone, so a stranger
 * cannot lock the admin out from the admin's own address.
 */
export const LOGIN_LIMITS: LoginLimits = {
  perUserAddress: 5,
  perAddress: 50,
  windowMs: 15 * 60 * 1000,
};

/** A login without a socket (an in-process caller) shares one bucket rather than escaping limits. */
const UNKNOWN_ADDRESS = "unknown";

/** The 16-bit groups of an IPv6 address, "::" expanded (an embedded IPv4 tail counts as two). */
function ipv6Groups(address: string): string[] {
  const [head = "", tail] = address.split("%")[0]?.split("::") ?? [];
  const split = (part: string | undefined) => (part ? part.split(":") : []);
  const width = (groups: string[]) => groups.length + (groups.at(-1)?.includes(".") ? 1 : 0);
  const [left, right] = [split(head), split(tail)];
  const zeros = tail === undefined ? [] : Array(8 - width(left) - width(right)).fill("0");
  return [...left, ...zeros, ...right];
}

/**
 * Whom a limit counts: an IPv4 address, or an IPv6 /64, because one IPv6 host is usually given
 * a whole /64 and could otherwise take a fresh address per guess.
 */
export function addressBucket(address: string | undefined): string {
  if (!address) return UNKNOWN_ADDRESS;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(address)) return address.slice(0, 64);
  const prefix = ipv6Groups(address)
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16));
  return `${prefix.join(":")}::/64`;
}

export interface LoginTicket {
  /** The password was right: this (username, address) starts afresh. */
  succeeded(): Promise<void>;
}

function tooManyAttempts(verdict: Extract<LoginAttemptVerdict, { allowed: false }>): TRPCError {
  const retryAfterSeconds = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const wait = `Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
  const message =
    verdict.scope === "address"
      ? `Too many login attempts from your address. ${wait}`
      : `Too many failed login attempts. ${wait}`;
  return new TRPCError({
    code: "TOO_MANY_REQUESTS",
    message,
    cause: new ErrorWithFields(message, { retryAfterSeconds }),
  });
}

/**
 * Login limits kept in the database, so they hold across restarts and for attempts still in
 * flight: an attempt is recorded before its password is hashed, and refused if it would exceed
 * a limit.
 */
export class LoginThrottle {
  /** Logins refused by each limit since start, for /metrics. */
  readonly refusals = { user_address: 0, address: 0 };

  constructor(
    private readonly store: Store,
    private readonly limits: LoginLimits = LOGIN_LIMITS,
  ) {}

  /** Records the attempt, or throws 429 with `retryAfterSeconds` when a limit is reached. */
  async begin(
    username: string,
    address: string | undefined,
    now = Date.now(),
  ): Promise<LoginTicket> {
    const usernameKey = username.trim().toLowerCase();
    const from = addressBucket(address);
    const verdict = await this.store.loginAttempts.begin(
      { usernameKey, address: from, now },
      this.limits,
    );
    if (!verdict.allowed) {
      this.refusals[verdict.scope]++;
      throw tooManyAttempts(verdict);
    }
    return { succeeded: () => this.store.loginAttempts.clear(usernameKey, from).then(() => {}) };
  }
}
