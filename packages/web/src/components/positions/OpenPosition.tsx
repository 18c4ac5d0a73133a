import { type PositionSide, parseExecutableSymbol } from "@spreadwatch/core";
import {
  type ComponentProps,
  createContext,
  type ReactNode,
  useContext,
  useMemo,
  useState,
} from "react";
import { LazyDialog } from "../app/LazyBoundary.tsx";
import { lazyPart } from "../app/lazyPart.ts";
import type { OpenPositionDialog as OpenPositionForm } from "./OpenPositionDialog.tsx";

// The form loads when first asked for, or when a button that asks for it is pointed at
// (docs/decisions.md "What the first load carries").
const OpenPositionDialog = lazyPart<ComponentProps<typeof OpenPositionForm>>(() =>
  import("./OpenPositionDialog.tsx").then((module) => module.OpenPositionDialog),
);

type Open = (symbol?: string) => void;

const OpenPositionContext = createContext<Open | undefined>(undefined);

/**
 * Where "Open position" is offered (a row's details, My spreads, the chart, the Positions screen)
 * without threading a callback through every table: the app provides it, a button asks for it.
 */
export function OpenPositionProvider({ children }: { children: ReactNode }) {
  const [target, setTarget] = useState<{ spread?: string; side?: PositionSide }>();
  const open = useMemo<Open>(
    () => (symbol) => {
      const parsed = symbol ? parseExecutableSymbol(symbol) : undefined;
      setTarget(parsed ? { spread: parsed.symbol, side: parsed.side } : { spread: symbol });
    },
    [],
  );
  return (
    <OpenPositionContext.Provider value={open}>
      {children}
      {target && (
        <LazyDialog what="dialog">
          <OpenPositionDialog
            spread={target.spread}
            side={target.side}
            onClose={() => setTarget(undefined)}
          />
        </LazyDialog>
      )}
    </OpenPositionContext.Provider>
  );
}

/** Opens the dialog for a symbol ("GC_BUY", "SP7_SELL", "GC"); undefined where no screen offers it. */
export function useOpenPosition(): Open | undefined {
  return useContext(OpenPositionContext);
}

/**
 * The "Open position" button of a details sheet: the sheet closes first (its <dialog> would
 * otherwise stay under the form), then the form opens for the sheet's symbol.
 */
export function OpenPositionButton({ symbol }: { symbol: string }) {
  const open = useOpenPosition();
  if (!open) return null;
  return (
    <button
      type="button"
      className="button"
      data-action="open-position"
      onPointerEnter={OpenPositionDialog.preload}
      onFocus={OpenPositionDialog.preload}
      onClick={(event) => {
        event.currentTarget.closest("dialog")?.close();
        open(symbol);
      }}
    >
      Open position
    </button>
  );
}

/** "Open position" beside a screen's controls (the chart's), for an executable symbol only. */
export function OpenPositionTrigger({ symbol }: { symbol: string }) {
  const open = useOpenPosition();
  if (!open || !parseExecutableSymbol(symbol)) return null;
  return (
    <button
      type="button"
      className="button button--small"
      data-action="open-position"
      onPointerEnter={OpenPositionDialog.preload}
      onFocus={OpenPositionDialog.preload}
      onClick={() => open(symbol)}
    >
      Open position
    </button>
  );
}
