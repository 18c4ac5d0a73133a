import { type ReactNode, useId } from "react";

interface SectionProps {
  title: string;
  children: ReactNode;
  /** Heading level: 2 for a screen's sections, 3 inside one. */
  level?: 2 | 3;
  className?: string;
  /** Controls shown on the title bar, e.g. the alerts panel's Add Alert toggle. */
  actions?: ReactNode;
}

/** A titled card for forms and text, styled like the dashboard's table panels. */
export function Section({ title, children, level = 2, className, actions }: SectionProps) {
  const id = useId();
  const Heading = level === 2 ? "h2" : "h3";
  const heading = (
    <Heading id={id} className="panel__title">
      {title}
    </Heading>
  );
  return (
    <section
      className={["panel", "section", className].filter(Boolean).join(" ")}
      aria-labelledby={id}
    >
      {actions ? (
        <div className="panel__bar">
          {heading}
          <div className="panel__actions">{actions}</div>
        </div>
      ) : (
        heading
      )}
      <div className="section__body">{children}</div>
    </section>
  );
}
