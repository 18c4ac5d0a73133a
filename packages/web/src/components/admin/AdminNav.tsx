import { useLocation } from "wouter";
import { ScreenLink } from "../app/ScreenLink.tsx";

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
        <ScreenLink
          key={href}
          href={href}
          className="admin-nav__link"
          aria-current={location === href ? "page" : undefined}
        >
          {label}
        </ScreenLink>
      ))}
    </nav>
  );
}
