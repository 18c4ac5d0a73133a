import { TRPCError, type TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { CONNECTED_MESSAGE, TEST_MESSAGE } from "../telegram/messages.ts";
import {
  INTERACTIVE_SEND,
  type TelegramNotifier,
  TelegramRejectedError,
  TelegramUnavailableError,
  warnTelegramUnreachable,
} from "../telegram/notifier.ts";
import { announcesAlertsChanged, authedProcedure } from "../trpc.ts";
import { noInput, success } from "./shared.ts";

/** A numeric chat id (negative for groups) or a public @channel name, as Telegram accepts. */
const chatIdInput = z.strictObject({
  chatId: z
    .string({ error: "Please enter your Telegram Chat ID." })
    .trim()
    .min(1, "Please enter your Telegram Chat ID.")
    .regex(
      /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$/,
      "A Telegram Chat ID is a number such as 123456789 (or @channelname).",
    ),
});

const statusReply = success.extend({
  /** Whether this server has a bot token at all; the UI says "not configured" otherwise. */
  configured: z.boolean(),
  botUsername: z.string().nullable(),
  connected: z.boolean(),
  chatId: z.string().nullable(),
});

const linkReply = success.extend({ connected: z.boolean() });

function requireNotifier(notifier: TelegramNotifier | undefined): TelegramNotifier {
  if (!notifier) {
    throw new TRPCError({
      code: "PRECONDITION_FAILED",
      message: "Telegram is not configured on this server",
    });
  }
  return notifier;
}

/**
 * Sends while the user waits: Telegram's own words when it refused, 502 when it could not be
 * reached in time (the interactive policy's deadline keeps the answer within 10 s).
 */
async function send(
  notifier: TelegramNotifier,
  chatId: string,
  text: string,
  shutdown: AbortSignal,
): Promise<void> {
  try {
    await notifier.send(chatId, text, INTERACTIVE_SEND, shutdown);
  } catch (error) {
    if (error instanceof TelegramRejectedError) {
      throw new TRPCError({ code: "BAD_REQUEST", message: `Telegram: ${error.message}` });
    }
    if (!(error instanceof TelegramUnavailableError)) throw error;
    warnTelegramUnreachable(error.message);
    throw new TRPCError({ code: "BAD_GATEWAY", message: "Could not reach Telegram" });
  }
}

/** Links or unlinks the user's chat, which decides whether their alerts can fire to Telegram. */
const changesLink = authedProcedure.use(announcesAlertsChanged()).output(linkReply);

export const telegramRouter = {
  status: authedProcedure.output(statusReply).query(async ({ ctx }) => {
    const { notifier, store } = ctx.services;
    const link = await store.telegramLinks.find(ctx.user.id);
    return {
      status: "success" as const,
      configured: notifier !== undefined,
      botUsername: notifier?.botUsername ?? null,
      connected: notifier !== undefined && link !== undefined,
      chatId: link?.chatId ?? null,
    };
  }),

  /** Stores the chat only after Telegram accepted a confirmation message to it. */
  connect: changesLink.input(chatIdInput).mutation(async ({ ctx, input }) => {
    const notifier = requireNotifier(ctx.services.notifier);
    await send(notifier, input.chatId, CONNECTED_MESSAGE, ctx.services.shutdownSignal);
    await ctx.services.store.telegramLinks.save(ctx.user.id, input.chatId, Date.now());
    return { status: "success" as const, connected: true };
  }),

  test: authedProcedure
    .input(noInput)
    .output(success)
    .mutation(async ({ ctx }) => {
      const notifier = requireNotifier(ctx.services.notifier);
      const link = await ctx.services.store.telegramLinks.find(ctx.user.id);
      if (!link) throw new TRPCError({ code: "BAD_REQUEST", message: "Telegram is not connected" });
      await send(notifier, link.chatId, TEST_MESSAGE, ctx.services.shutdownSignal);
      return { status: "success" as const };
    }),

  disconnect: changesLink.input(noInput).mutation(async ({ ctx }) => {
    requireNotifier(ctx.services.notifier);
    await ctx.services.store.telegramLinks.delete(ctx.user.id);
    return { status: "success" as const, connected: false };
  }),
} satisfies TRPCRouterRecord;
