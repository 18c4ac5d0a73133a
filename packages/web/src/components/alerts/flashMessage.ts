/** How long a transient message stays (docs/decisions.md: the Delete All confirmation). */
export const FLASH_MESSAGE_MS = 3000;

/**
 * A message that shows for FLASH_MESSAGE_MS and clears itself, instead of a blocking
 * window.alert. Plain DOM on document.body, because the modal that reports it has closed
 * (and unmounted) by the time it shows. role="status" so screen readers announce it.
 */
export function flashMessage(text: string): void {
  const box = document.createElement("div");
  box.className = "flash-message";
  box.setAttribute("role", "status");
  box.textContent = text;
  document.body.append(box);
  setTimeout(() => box.remove(), FLASH_MESSAGE_MS);
}
