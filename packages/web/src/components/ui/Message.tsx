import type { ReactNode } from "react";

interface MessageProps {
  tone: "error" | "info" | "success";
  children: ReactNode;
  onDismiss?: () => void;
}

/** The red error box and the green info/success box of the spec's screens. */
export function Message({ tone, children, onDismiss }: MessageProps) {
  return (
    <div className={`message message--${tone}`} role={tone === "error" ? "alert" : "status"}>
      <p className="message__text">{children}</p>
      {onDismiss && (
        <button type="button" className="message__dismiss" onClick={onDismiss} aria-label="Dismiss">
          ×
        </button>
      )}
    </div>
  );
}

/** A form's last answer (hooks/ui/useFlash.ts): its error, or its success while it is shown. */
export function FlashMessages({ flash }: { flash: { error?: string; success?: string } }) {
  return (
    <>
      {flash.error && <Message tone="error">{flash.error}</Message>}
      {flash.success && <Message tone="success">{flash.success}</Message>}
    </>
  );
}
