import type { ReactNode } from "react";

/** Title on the left; the right side is for the signed-in user's name and links. */
export function AppHeader({ children }: { children?: ReactNode }) {
  return (
    <header className="app-header">
      <h1 className="app-header__title">Commodity Prices Dashboard</h1>
      <nav className="app-header__account" aria-label="Account">
        {children}
      </nav>
    </header>
  );
}
