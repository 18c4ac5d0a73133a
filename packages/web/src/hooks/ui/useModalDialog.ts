import { type RefObject, useEffect, useRef } from "react";
import { useReturnFocus } from "./useReturnFocus.ts";

/**
 * A native <dialog> shown modally once mounted (the top layer: Escape, focus trapping and an inert
 * page come free), with focus put back where it was when it goes (useReturnFocus).
 */
export function useModalDialog(): RefObject<HTMLDialogElement | null> {
  const dialog = useRef<HTMLDialogElement>(null);
  useReturnFocus(dialog);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);
  return dialog;
}
