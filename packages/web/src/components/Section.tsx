import { type ReactNode, useId } from "react";

interface SectionProps {
  title: string;
  children: ReactNode;
  /** Heading level: 2 for a screen's sections, 3 inside one. */
  level?: 2 | 3;
  className?: string;
}

/** A titled card for forms and text, styled like the dashboard's table panels. */
export function Section({ title, children, level = 2, className }: SectionProps) {
  const id = useId();
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <section
      className={["panel", "section", className].filter(Boolean).join(" ")}
      aria-labelledby={id}
    >
      <Heading id={id} className="panel__title">
        {title}
      </Heading>
      <div className="section__body">{children}</div>
    </section>
  );
}
