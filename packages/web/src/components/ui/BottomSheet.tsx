import { type ReactNode, useId } from "react";
import { useModalDialog } from "../../hooks/ui/useModalDialog.ts";

interface BottomSheetProps {
  title: ReactNode;
  children: ReactNode;
  onClose: () => void;
}

/**
 * A modal panel that rises from the bottom of the screen, where a thumb reaches: a native
 * <dialog> in the top layer, so Escape, the back gesture's close and focus trapping come free.
 * A tap on the backdrop closes it.
 */
export function BottomSheet({ title, children, onClose }: BottomSheetProps) {
  const titleId = useId();
  const dialog = useModalDialog();
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a backdrop tap's keyboard twin is Escape, which <dialog> handles itself
    <dialog
      ref={dialog}
      className="sheet"
      aria-labelledby={titleId}
      onClose={(event) => {
        // A close event arrives after the fact: StrictMode's remount (development builds) closes
        // and reopens the dialog at once, and the sheet is still wanted when it is open again.
        if (!event.currentTarget.open) onClose();
      }}
      onClick={(event) => {
        // The dialog box itself only receives clicks outside its content: the backdrop.
        if (event.target === event.currentTarget) event.currentTarget.close();
      }}
    >
      <div className="sheet__content">
        <header className="sheet__header">
          <h2 id={titleId} className="sheet__title">
            {title}
          </h2>
          <button
            type="button"
            className="message__dismiss sheet__close"
            aria-label="Close details"
            onClick={() => dialog.current?.close()}
          >
            ×
          </button>
        </header>
        {children}
      </div>
    </dialog>
  );
}
