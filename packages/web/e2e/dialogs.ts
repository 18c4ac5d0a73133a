import type { Dialog, Page } from "playwright-core";

/**
 * Answers the next alert/confirm dialogs in turn (true accepts, false dismisses) and reports
 * their messages. One listener for all of them, so no dialog finds nobody listening.
 */
export function answerDialogs(page: Page, answers: boolean[]): Promise<string[]> {
  return new Promise((resolve) => {
    const messages: string[] = [];
    const onDialog = (dialog: Dialog) => {
      const accept = answers[messages.length] ?? false;
      messages.push(dialog.message());
      void (accept ? dialog.accept() : dialog.dismiss());
      if (messages.length === answers.length) {
        page.off("dialog", onDialog);
        resolve(messages);
      }
    };
    page.on("dialog", onDialog);
  });
}

/** Answers the next dialog and reports its message. */
export async function answerNextDialog(page: Page, accept = true): Promise<string> {
  const [message] = await answerDialogs(page, [accept]);
  return message ?? "";
}
