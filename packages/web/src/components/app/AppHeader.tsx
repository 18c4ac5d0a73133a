import type { ReactNode } from "react";

interface AppHeaderProps {
  title?: string;
  /** The right side: the signed-in user's name and links, or a screen's own controls. */
  children?: ReactNode;
}

export function AppHeader({ title = "Commodity Prices Dashboard", children }: AppHeaderProps) {
  return (
    <header className="app-header">
      <h1 className="app-header__title">{title}</h1>
      <nav className="app-header__account" aria-label="Account">
        {children}
      </nav>
    </header>
  );
}
