import { z } from "zod";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./passwords.ts";

export const USERNAME_PATTERN = /^[A-Za-z0-9._-]{1,32}$/;

export const usernameSchema = z
  .string({ error: "Username is required" })
  .trim()
  .regex(USERNAME_PATTERN, "Username must be 1–32 letters, digits, dots, underscores or dashes");

/** A password being set; `label` starts the error sentences ("New password must be…"). */
export function newPasswordSchema(label = "Password") {
  return z
    .string({ error: `${label} is required` })
    .min(1, `${label} is required`)
    .min(MIN_PASSWORD_LENGTH, `${label} must be at least ${MIN_PASSWORD_LENGTH} characters`)
    .max(MAX_PASSWORD_LENGTH, `${label} must be at most ${MAX_PASSWORD_LENGTH} characters`);
}

/** What a login may send: any existing password, bounded so a huge body costs nothing to hash. */
export const loginInput = z.strictObject({
  username: z
    .string({ error: "Username is required" })
    .trim()
    .min(1, "Username is required")
    .max(64),
  password: z
    .string({ error: "Password is required" })
    .min(1, "Password is required")
    .max(MAX_PASSWORD_LENGTH, "Password is too long"),
});
