import {
  WEBHOOK_SECRET_LENGTH_TEXT,
  WEBHOOK_SECRET_MAX,
  WEBHOOK_SECRET_MIN,
  WEBHOOK_URL_MAX_LENGTH,
} from "@spreadwatch/core";
import { TRPCError, type TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { announcesAlertsChanged, authedProcedure } from "../trpc.ts";
import { WebhookRefusedError } from "../webhooks/webhook-target.ts";
import { noInput } from "./shared.ts";

// Not trimmed: the secret is the HMAC key byte for byte, so stray spaces are refused instead.
const secretRules = z
  .string()
  .min(WEBHOOK_SECRET_MIN, WEBHOOK_SECRET_LENGTH_TEXT)
  .max(WEBHOOK_SECRET_MAX, WEBHOOK_SECRET_LENGTH_TEXT)
  .refine((s) => s.trim() === s, "The secret must not start or end with a space.")
  .refine((s) => ![...s].some(isControl), "The secret must not contain control characters.");

/**
 * Only the shape here: the secret's rules are checked in `save` beside the URL's, so a form
 * with both wrong hears about both at once.
 */
const webhookInput = z.strictObject({
  url: z
    .string({ error: "Please enter the webhook URL." })
    .trim()
    .min(1, "Please enter the webhook URL.")
    .max(
      WEBHOOK_URL_MAX_LENGTH,
      `The webhook URL is too long (at most ${WEBHOOK_URL_MAX_LENGTH} characters).`,
    ),
  secret: z.string({ error: "Please enter a secret (or press Generate)." }),
});

function isControl(char: string): boolean {
  const code = char.charCodeAt(0);
  return code < 0x20 || code === 0x7f;
}

const NONE = { url: null, secret: null } as const;

/** The user's webhook as stored; nulls (NONE) when there is none. */
const webhook = z.object({ url: z.string(), secret: z.string() });
const noWebhook = z.object({ url: z.null(), secret: z.null() });

/** How the receiver answered the test POST (`ok` false is not an HTTP error). */
const testReply = z.union([
  z.object({ ok: z.literal(true), status: z.number() }),
  z.object({ ok: z.literal(false), status: z.number().optional(), error: z.string() }),
]);

/** Saves or removes the user's webhook, which decides whether their alerts can fire to it. */
const changesWebhook = authedProcedure.use(announcesAlertsChanged());
const savesWebhook = changesWebhook.output(webhook);

export const webhookRouter = {
  get: authedProcedure.output(z.union([webhook, noWebhook])).query(async ({ ctx }) => {
    const hook = await ctx.services.store.webhooks.get(ctx.user.id);
    return hook ? { url: hook.url, secret: hook.secret } : NONE;
  }),

  /** Checked (scheme, length, every address the host resolves to) before anything is stored. */
  save: savesWebhook.input(webhookInput).mutation(async ({ ctx, input }) => {
    const { webhooks } = ctx.services;
    const secretProblem = secretRules.safeParse(input.secret).error?.issues[0]?.message;
    if (secretProblem) {
      // The URL's own syntax and scheme are named too; its host is resolved only for a good pair.
      const problems = [webhooks.syntaxProblem(input.url), secretProblem];
      throw new TRPCError({ code: "BAD_REQUEST", message: problems.filter(Boolean).join(" ") });
    }
    let url: string;
    try {
      url = await webhooks.check(input.url);
    } catch (error) {
      if (!(error instanceof WebhookRefusedError)) throw error;
      throw new TRPCError({ code: "BAD_REQUEST", message: error.message });
    }
    const saved = await ctx.services.store.webhooks.save(
      ctx.user.id,
      url,
      input.secret,
      Date.now(),
    );
    return { url: saved.url, secret: saved.secret };
  }),

  remove: changesWebhook
    .input(noInput)
    .output(noWebhook)
    .mutation(async ({ ctx }) => {
      await ctx.services.store.webhooks.delete(ctx.user.id);
      return NONE;
    }),

  /** POSTs a test body now and says how the receiver answered (`ok` false is not an HTTP error). */
  test: authedProcedure
    .input(noInput)
    .output(testReply)
    .mutation(async ({ ctx }) => {
      const userId = ctx.user.id;
      const hook = await ctx.services.store.webhooks.get(userId);
      if (!hook)
        throw new TRPCError({ code: "BAD_REQUEST", message: "No webhook is set. Save one first." });
      const result = await ctx.services.webhooks.sendTestFor(
        userId,
        hook,
        ctx.services.shutdownSignal,
      );
      if (!result) {
        throw new TRPCError({
          code: "TOO_MANY_REQUESTS",
          message: "A test is already being sent.",
        });
      }
      return result.ok
        ? { ok: true, status: result.status }
        : {
            ok: false,
            ...(result.status !== undefined && { status: result.status }),
            error: result.error,
          };
    }),
} satisfies TRPCRouterRecord;
