import { z } from "zod";
import { DEFAULT_PASSWORD_COST, MAX_PASSWORD_COST, MIN_PASSWORD_COST } from "../auth/passwords.ts";
import { ConfigError } from "./config-error.ts";

const RANGE = `must be a whole number from ${MIN_PASSWORD_COST} to ${MAX_PASSWORD_COST} (scrypt's N is 2 to this power)`;

/** PASSWORD_HASH_COST: scrypt's cost for passwords set from now on (auth/passwords.ts). */
export const passwordCost = z.coerce
  .number({ error: RANGE })
  .int(RANGE)
  .min(MIN_PASSWORD_COST, RANGE)
  .max(MAX_PASSWORD_COST, RANGE)
  .default(DEFAULT_PASSWORD_COST);

/** The cost alone, for the users CLI, which reads no other setting but DATA_DIR. */
export function passwordCostFrom(env: Record<string, string | undefined>): number {
  const value = env.PASSWORD_HASH_COST === "" ? undefined : env.PASSWORD_HASH_COST;
  const parsed = passwordCost.safeParse(value);
  if (!parsed.success) {
    const got = value === undefined ? "" : ` (got ${JSON.stringify(value)})`;
    throw new ConfigError([`Invalid PASSWORD_HASH_COST: ${RANGE}${got}`]);
  }
  return parsed.data;
}
