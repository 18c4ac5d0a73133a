import { createHash } from "node:crypto";
import type { Store } from "@spreadwatch/db";
import { TRPCError } from "@trpc/server";
import { z } from "zod";

/** How long a key is remembered: a retry a day later is a new request. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** Optional on creates; REST sends it as the Idempotency-Key header, the web app per submission. */
export const idempotencyKeySchema = z
  .string({ error: "idempotencyKey must be a string" })
  .trim()
  .min(1, "idempotencyKey must not be empty")
  .max(255, "idempotencyKey must be at most 255 characters")
  .optional();

/** JSON with sorted keys and no undefined fields, so equal requests digest equally. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const fields = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${fields.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function fingerprint(operation: string, request: unknown): string {
  return createHash("sha256")
    .update(`${operation}\n${stableJson(request)}`)
    .digest("hex");
}

export function keyReusedError(): TRPCError {
  return new TRPCError({
    code: "UNPROCESSABLE_CONTENT",
    message:
      "This Idempotency-Key was already used for a different request. Send a new key with a new request.",
  });
}

export interface IdempotentCall {
  store: Store;
  userId: number;
  /** The procedure, e.g. "alerts.create": one key cannot stand for two kinds of request. */
  operation: string;
  key: string | undefined;
  /** The validated input without the key (and without secrets, which must not be stored). */
  request: unknown;
}

/** A keyed procedure's call: the input's key apart, the rest of it the request. */
export function keyedCall<I extends { idempotencyKey?: string | undefined }>(
  store: Store,
  userId: number,
  operation: string,
  input: I,
): IdempotentCall & { request: Omit<I, "idempotencyKey"> } {
  const { idempotencyKey, ...request } = input;
  return { store, userId, operation, key: idempotencyKey, request };
}

/**
 * Runs a create once per (user, key) within a day and answers every repeat with the stored
 * answer. Without a key it simply runs. `create` must use only the store it is given: with a
 * key that store is bound to the transaction that also records the answer.
 */
export async function once<T>(
  call: IdempotentCall,
  create: (store: Store) => Promise<T>,
): Promise<{ response: T; replayed: boolean }> {
  if (call.key === undefined) return { response: await create(call.store), replayed: false };
  const outcome = await call.store.idempotency.runOnce(claimOf(call, call.key), create);
  if (outcome.kind === "mismatch") throw keyReusedError();
  // A replay is the JSON the first request answered, which is what T serialised to.
  return { response: outcome.response as T, replayed: outcome.kind === "replayed" };
}

function claimOf(call: IdempotentCall, key: string) {
  return {
    userId: call.userId,
    key,
    fingerprint: fingerprint(call.operation, call.request),
    now: Date.now(),
    ttlMs: IDEMPOTENCY_TTL_MS,
  };
}

/**
 * The 422 of a key reused for another request, before the caller does anything: a create that
 * first puts instruments in use (spreads.create, positions.roll) must refuse with nothing
 * changed. `once` still decides atomically; this only answers early.
 */
export async function refuseReusedKey(call: IdempotentCall): Promise<void> {
  if (call.key === undefined) return;
  const earlier = await call.store.idempotency.peek(claimOf(call, call.key));
  if (earlier?.kind === "mismatch") throw keyReusedError();
}
