import { type PositionSide, parseExecutableSymbol } from "@spreadwatch/core";
import { createContext, type ReactNode, useContext, useMemo, useState } from "react";
import { OpenPositionDialog } from "./OpenPositionDialog.tsx";

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
        <OpenPositionDialog
          spread={target.spread}
          side={target.side}
          onClose={() => setTarget(undefined)}
        />
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
      onClick={() => open(symbol)}
    >
      Open position
    </button>
  );
}
