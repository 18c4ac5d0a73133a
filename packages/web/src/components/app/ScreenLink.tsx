import type { AnchorHTMLAttributes, ReactNode } from "react";
import { Link } from "wouter";
import { lazyScreenOf } from "../../screens/lazyScreens.ts";

interface ScreenLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> {
  href: string;
  /** history.state for the screen opened (the chart's selection). */
  state?: unknown;
  children: ReactNode;
}

/**
 * A link to another screen that fetches that screen's code when pointed at, touched or
 * focused, so the click that follows finds it loaded (docs/decisions.md "What the first load
 * carries").
 */
export function ScreenLink(props: ScreenLinkProps) {
  const prefetch = () => lazyScreenOf(props.href)?.preload();
  return (
    <Link
      {...props}
      onPointerEnter={(event) => {
        prefetch();
        props.onPointerEnter?.(event);
      }}
      onTouchStart={(event) => {
        prefetch();
        props.onTouchStart?.(event);
      }}
      onFocus={(event) => {
        prefetch();
        props.onFocus?.(event);
      }}
    />
  );
}
