import { type ReactElement, type ReactNode, useId, useLayoutEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";

const GAP = 6;
const MARGIN = 8;

interface Anchor {
  element: HTMLElement;
}

interface TooltipProps {
  content: ReactNode;
  /** Renders the anchor, given the handlers and the id that describe it. */
  children: (props: {
    "aria-describedby": string | undefined;
    onMouseEnter: (event: { currentTarget: HTMLElement }) => void;
    onMouseLeave: () => void;
    onFocus: (event: { currentTarget: HTMLElement }) => void;
    onBlur: () => void;
  }) => ReactElement;
}

/**
 * A hover and focus tooltip drawn on top of the page, so the table's sideways scroll box does
 * not clip it; it sits below its anchor, or above when there is no room, inside the viewport.
 */
export function Tooltip({ content, children }: TooltipProps) {
  const id = useId();
  const [anchor, setAnchor] = useState<Anchor>();
  const show = (event: { currentTarget: HTMLElement }) =>
    setAnchor({ element: event.currentTarget });
  const hide = () => setAnchor(undefined);
  return (
    <>
      {children({
        "aria-describedby": anchor ? id : undefined,
        onMouseEnter: show,
        onMouseLeave: hide,
        onFocus: show,
        onBlur: hide,
      })}
      {anchor && <Bubble id={id} anchor={anchor.element} onGone={hide} content={content} />}
    </>
  );
}

function Bubble({
  id,
  anchor,
  content,
  onGone,
}: {
  id: string;
  anchor: HTMLElement;
  content: ReactNode;
  onGone: () => void;
}) {
  const bubble = useRef<HTMLDivElement>(null);
  const [position, setPosition] = useState<{ top: number; left: number }>();

  useLayoutEffect(() => {
    const element = bubble.current;
    if (!element) return;
    const target = anchor.getBoundingClientRect();
    const { width, height } = element.getBoundingClientRect();
    const maxLeft = window.innerWidth - width - MARGIN;
    const left = Math.max(MARGIN, Math.min(maxLeft, target.left + target.width / 2 - width / 2));
    const below = target.bottom + GAP;
    const top = below + height > window.innerHeight ? target.top - GAP - height : below;
    setPosition({ top: Math.max(MARGIN, top), left });
  }, [anchor]);

  useLayoutEffect(() => {
    // A fixed bubble would drift from its anchor on scroll; hide it instead.
    window.addEventListener("scroll", onGone, { capture: true, once: true });
    return () => window.removeEventListener("scroll", onGone, { capture: true });
  }, [onGone]);

  return createPortal(
    <div
      ref={bubble}
      id={id}
      role="tooltip"
      className="tooltip"
      style={position ?? { top: 0, left: 0, visibility: "hidden" }}
    >
      {content}
    </div>,
    document.body,
  );
}
