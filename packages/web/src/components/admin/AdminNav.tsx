import { Link, useLocation } from "wouter";

const PAGES = [
  ["/admin", "Users & Health"],
  ["/admin/instruments", "Instruments"],
  ["/admin/data", "Data"],
] as const;

/** The admin pages, one link each; the current one is marked for screen readers and the eye. */
export function AdminNav() {
  const [location] = useLocation();
  return (
    <nav className="admin-nav" aria-label="Admin pages">
      {PAGES.map(([href, label]) => (
        <Link
          key={href}
          href={href}
          className="admin-nav__link"
          aria-current={location === href ? "page" : undefined}
        >
          {label}
        </Link>
      ))}
    </nav>
  );
}
