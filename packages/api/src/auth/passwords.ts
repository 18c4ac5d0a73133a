import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";

const KEY_LENGTH = 32;
/**
 * scrypt's cost, log2 of N (r=8): 15 is 32 MiB and ~100 ms per hash on a 2-core server. OWASP's
 * 17 took 400 ms here, which lets a handful of concurrent logins stall the price stream; the login
 * throttle covers online guessing. PASSWORD_HASH_COST sets it (docs/operations.md); each hash
 * stores its own parameters, so a change applies to passwords set from then on and old ones verify.
 */
export const DEFAULT_PASSWORD_COST = 15;
/** 10 is 1 MiB, ~1.5 ms: for test runs (the way Rails and Django hash in tests), never a server. */
export const MIN_PASSWORD_COST = 10;
export const MAX_PASSWORD_COST = 17;
const R = 8;
// Room for the highest cost (128 × N × r = 128 MiB at 17) and scrypt's own overhead.
const MAX_MEMORY = 256 * 1024 * 1024;

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 256;

function derive(
  password: string,
  salt: Buffer,
  params: { N: number; r: number; p: number },
): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: MAX_MEMORY };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/**
 * `scrypt$N$r$p$salt$hash` (base64url), so parameters can be raised later without breaking old
 * hashes. The cost is the server's (AuthSettings.passwordCost): every caller says it.
 */
export async function hashPassword(password: string, cost: number): Promise<string> {
  const salt = randomBytes(16);
  const params = { N: 2 ** cost, r: R, p: 1 };
  const key = await derive(password, salt, params);
  return [
    "scrypt",
    params.N,
    params.r,
    params.p,
    salt.toString("base64url"),
    key.toString("base64url"),
  ].join("$");
}

/** Constant-time comparison; a malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const key = await derive(password, Buffer.from(salt, "base64url"), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

const unknownUserHashes = new Map<number, Promise<string>>();

/**
 * A hash of a random password at the server's cost, checked when the username is unknown so that
 * a wrong username takes as long as a wrong password and reveals nothing. One per cost, made as
 * the server starts (composition.ts) at the cost it hashes with.
 */
export function unknownUserHash(cost: number): Promise<string> {
  let hash = unknownUserHashes.get(cost);
  if (!hash) {
    hash = hashPassword(randomBytes(16).toString("hex"), cost);
    unknownUserHashes.set(cost, hash);
  }
  return hash;
}

export function randomPassword(): string {
  return randomBytes(12).toString("base64url");
}
