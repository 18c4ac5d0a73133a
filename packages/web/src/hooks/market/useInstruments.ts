import type { RouterOutputs } from "@spreadwatch/api";
import type { Prices } from "@spreadwatch/core";
import { useEffect, useRef } from "react";
import { type InstrumentInfo, undescribedKeys } from "../../market/priceRows.ts";
import { trpc } from "../../trpc.ts";

export type InstrumentList = RouterOutputs["instruments"]["list"];
export type InstrumentInUse = InstrumentList["instruments"][number];

const NONE: readonly InstrumentInfo[] = [];

/** The instruments in use and the shipped ones an admin can add (`instruments.list`). */
export function useInstrumentList() {
  return trpc.instruments.list.useQuery();
}

/**
 * The instruments in use, to describe the Prices table's rows. The prices say which keys are
 * in use; when one arrives that the list does not describe (another admin added it), the list
 * is fetched again, once per such set of keys (a key the list never describes must not loop).
 */
export function useInstrumentInfo(prices: Prices | undefined): readonly InstrumentInfo[] {
  const list = useInstrumentList();
  const described = list.data?.instruments ?? NONE;
  const missing = prices ? undescribedKeys(prices, described).join(" ") : "";
  const asked = useRef("");
  const { refetch } = list;
  useEffect(() => {
    if (!missing || asked.current === missing) return;
    asked.current = missing;
    void refetch();
  }, [missing, refetch]);
  return described;
}
