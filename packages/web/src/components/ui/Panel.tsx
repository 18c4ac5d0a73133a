import type { ReactNode } from "react";

interface PanelProps {
  title: string;
  children: ReactNode;
  footer?: ReactNode;
  /** A line between the title and the table, e.g. where the raw prices come from. */
  note?: ReactNode;
  className?: string;
}

/** A titled card around a table; the table scrolls sideways inside it on narrow screens. */
export function Panel({ title, children, footer, note, className }: PanelProps) {
  const id = `panel-${title.toLowerCase().replaceAll(/\W+/g, "-")}`;
  return (
    <section className={["panel", className].filter(Boolean).join(" ")} aria-labelledby={id}>
      <h2 id={id} className="panel__title">
        {title}
      </h2>
      {note && <div className="panel__note">{note}</div>}
      <div className="panel__scroll">{children}</div>
      {footer && <div className="panel__footer">{footer}</div>}
    </section>
  );
}
