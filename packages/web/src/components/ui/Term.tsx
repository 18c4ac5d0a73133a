import type { ReactNode } from "react";

interface TermProps {
  label: ReactNode;
  /** The value's data-field, where tests and styles find it. */
  field?: string;
  className?: string;
  children: ReactNode;
}

/**
 * One term of a description list: its label and its value, in a <div> of their own so the list's
 * grid keeps each pair together.
 */
export function Term({ label, field, className, children }: TermProps) {
  return (
    <div>
      <dt>{label}</dt>
      <dd data-field={field} className={className}>
        {children}
      </dd>
    </div>
  );
}
