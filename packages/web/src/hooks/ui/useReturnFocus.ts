import { type RefObject, useLayoutEffect, useState } from "react";

/** Where focus may go back to, best first. */
type Targets = HTMLElement[];

/** Where each open dialog sends focus back to, for a dialog opened from inside another. */
const targetsOf = new WeakMap<Element, Targets>();

const FOCUSABLE = "button:not(:disabled), a[href], input:not(:disabled), select, [tabindex='0']";
/** Where a control that is gone is looked for a neighbour: its row, list item or section. */
const CONTAINERS = "tr, li, section";

/**
 * The control that had focus when a dialog opened, then its row, list item and section (read
 * now: once it is removed, a node no longer knows where it was), then the same for the dialog
 * it sits in, if any: a modal opened from the phone's details sheet outlives the sheet, and
 * focus then goes back to the row that opened the sheet.
 */
function targetsFor(active: Element | null): Targets {
  if (!(active instanceof HTMLElement) || active === document.body) return [];
  const host = active.closest("dialog");
  const containers: HTMLElement[] = [];
  // Inside a dialog, only its own containers: past it, the opener of the dialog comes first.
  for (let node = active.parentElement; node && node !== host; node = node.parentElement) {
    if (node.matches(CONTAINERS)) containers.push(node);
  }
  return [active, ...containers, ...((host && targetsOf.get(host)) || [])];
}

/**
 * Puts focus back where it was when the dialog opened once it closes, whether it closes itself
 * or is simply unmounted, which would otherwise leave focus on the page's body and a keyboard
 * user tabbing from the top again. If that control is gone (a deleted alert's bell, the
 * chart's one-off popover), the first control of the row, list item or section it was in.
 */
export function useReturnFocus(dialog: RefObject<HTMLDialogElement | null>): void {
  // Read while rendering, before the dialog's effects move focus into it.
  const [targets] = useState(() => targetsFor(document.activeElement));
  useLayoutEffect(() => {
    const element = dialog.current;
    if (element) targetsOf.set(element, targets);
    return () => {
      // An open modal dialog makes everything outside it inert: close it first.
      if (element?.open) element.close();
      restore(targets);
    };
  }, [dialog, targets]);
}

/** How long a restored focus is watched for its control leaving the page. */
const GUARD_MS = 5_000;

/** The first target still on the page: the control itself, or a container's first control. */
function usable(targets: Targets): { control: HTMLElement; rest: Targets } | undefined {
  for (const [i, target] of targets.entries()) {
    if (!target.isConnected) continue;
    const control = target.matches(CONTAINERS)
      ? target.querySelector<HTMLElement>(FOCUSABLE)
      : target;
    if (control) return { control, rest: targets.slice(i + 1) };
  }
  return undefined;
}

/**
 * Focuses the first usable target, and keeps watching it for a moment: the control can still
 * leave after the dialog closed (a deleted alert's bell goes when the list refetches), which
 * would drop focus to the body; then the next target (its row) takes focus.
 */
function restore(targets: Targets): void {
  const found = usable(targets);
  if (!found) return;
  const { control, rest } = found;
  control.focus({ preventScroll: true });
  const observer = new MutationObserver(() => {
    if (control.isConnected) return;
    stop();
    const active = document.activeElement;
    if (active === null || active === document.body) restore(rest);
  });
  const onFocus = (event: FocusEvent) => {
    if (event.target !== control) stop();
  };
  const timer = setTimeout(() => stop(), GUARD_MS);
  function stop() {
    observer.disconnect();
    document.removeEventListener("focusin", onFocus, true);
    clearTimeout(timer);
  }
  observer.observe(document.body, { childList: true, subtree: true });
  document.addEventListener("focusin", onFocus, true);
}
