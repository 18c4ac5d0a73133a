import type { RouterOutputs } from "@spreadwatch/api";
import { isSpreadSymbol, parseExecutableSymbol, spreadSymbolLabel } from "@spreadwatch/core";
import { useCallback, useMemo } from "react";
import { trpc } from "../../trpc.ts";

export type SpreadDefinitionView = RouterOutputs["spreads"]["list"]["spreads"][number];

const NONE: readonly SpreadDefinitionView[] = [];

/**
 * Every definition the user sees (`spreads.list`: the built-ins, shared ones and their own). One
 * cache for the My spreads table, the builder, the alert form, the chart's select and the labels.
 */
export function useSpreadDefinitions() {
  const list = trpc.spreads.list.useQuery(undefined, { staleTime: 30_000 });
  return { ...list, spreads: list.data?.spreads ?? NONE };
}

/** The definitions of My spreads: every one the user sees but the built-ins (they have their tables). */
export function useOwnSpreads(): readonly SpreadDefinitionView[] {
  const { spreads } = useSpreadDefinitions();
  return useMemo(() => spreads.filter((spread) => !spread.builtin), [spreads]);
}

/** The executable symbols of the user's definitions, in list order: SP7_BUY, SP7_SELL, SP9_BUY … */
export function executableSymbols(spreads: readonly SpreadDefinitionView[]): string[] {
  return spreads.flatMap((spread) => [`${spread.symbol}_BUY`, `${spread.symbol}_SELL`]);
}

/** "Gold Buy" for GC_BUY, "GOLD near/next calendar Sell" for SP7_SELL, else the symbol itself. */
export function symbolLabel(symbol: string, spreads: readonly SpreadDefinitionView[]): string {
  if (isSpreadSymbol(symbol)) return spreadSymbolLabel(symbol);
  const parsed = parseExecutableSymbol(symbol);
  const spread = parsed && spreads.find((each) => each.symbol === parsed.symbol);
  if (!parsed || !spread) return symbol;
  return `${spread.name} ${parsed.side === "BUY" ? "Buy" : "Sell"}`;
}

/** symbolLabel over the user's definitions, for selects, the alert list, History and toasts. */
export function useSymbolLabel(): (symbol: string) => string {
  const { spreads } = useSpreadDefinitions();
  return useCallback((symbol: string) => symbolLabel(symbol, spreads), [spreads]);
}

/**
 * The definition mutations; each refetches the list (and the alerts a delete took) when settled.
 * A created or changed spread's statistics exist as soon as it does (the server computes them
 * from its legs' closes when `market.statsAll` is asked): refetch them too rather than leave z and
 * percentile blank until the minute's poll.
 */
export function useSpreadChanges() {
  const utils = trpc.useUtils();
  const onSettled = () => utils.spreads.list.invalidate();
  const withStats = async () => {
    await Promise.all([onSettled(), utils.market.statsAll.invalidate()]);
  };
  return {
    create: trpc.spreads.create.useMutation({ onSettled: withStats }),
    update: trpc.spreads.update.useMutation({ onSettled: withStats }),
    remove: trpc.spreads.remove.useMutation({
      onSettled: async () => {
        await Promise.all([onSettled(), utils.alerts.list.invalidate()]);
      },
    }),
  };
}
