import type { ReactNode } from "react";
import { plainRupees } from "./format.ts";

/**
 * The line of ₹ figures a dialog shows before its action (the Open preview, the order ticket's):
 * announced politely, busy while the answer for the form's very values is on its way.
 */
export function PreviewLine({
  field,
  updating,
  children,
}: {
  field: string;
  updating: boolean;
  children: ReactNode;
}) {
  return (
    <p
      className="position-modal__preview muted"
      data-field={field}
      data-state={updating ? "updating" : "current"}
      aria-live="polite"
      aria-busy={updating}
    >
      {children}
    </p>
  );
}

/** One ₹ figure of a preview line: "…" while the answer for the form's values is on its way. */
export function PreviewFigure({
  field,
  value,
  updating,
}: {
  field: string;
  value: number | null | undefined;
  updating: boolean;
}) {
  return (
    <span data-field={field} data-value={value ?? ""}>
      {updating ? "…" : plainRupees(value)}
    </span>
  );
}
