import { parseInstrumentKey } from "@spreadwatch/core";
import type { InstrumentInUse } from "../../hooks/market/useInstruments.ts";
import { useFlash } from "../../hooks/ui/useFlash.ts";
import { formatExpiry } from "../../market/priceRows.ts";
import { failureText } from "../../session/errors.ts";
import { trpc } from "../../trpc.ts";
import { DataTable } from "../ui/DataTable.tsx";
import { FlashMessages } from "../ui/Message.tsx";
import { ScrollRegion } from "../ui/ScrollRegion.tsx";
import type { Column } from "../ui/TableHead.tsx";

const DASH = "—";

const COLUMNS: readonly Column[] = [
  { label: "Key" },
  { label: "Name" },
  { label: "Exchange" },
  { label: "Contract" },
  { label: "Expiry" },
  { label: "Lot", num: true },
  { label: "Provider" },
  { label: <span className="visually-hidden">Actions</span>, className: "actions" },
];

const MONTH_ORDER = ["near", "next", "far"];

/**
 * The list in the server's order, each later month moved up to just after its root's first
 * row: GOLD@next beside GOLD, not after CRUDEOIL.
 */
export function byRoot<T extends { key: string }>(instruments: readonly T[]): T[] {
  const first = new Map<string, number>();
  instruments.forEach((inst, index) => {
    const { root } = parseInstrumentKey(inst.key);
    if (!first.has(root)) first.set(root, index);
  });
  const rank = (inst: T) => {
    const { root, month } = parseInstrumentKey(inst.key);
    return [first.get(root) ?? 0, MONTH_ORDER.indexOf(month)] as const;
  };
  return [...instruments].sort((a, b) => {
    const [rootA, monthA] = rank(a);
    const [rootB, monthB] = rank(b);
    return rootA - rootB || monthA - monthB;
  });
}

/**
 * The instruments in use: what each is, which contract it quotes now and who serves it, with
 * why none does where that is so. Remove (not on the built-ins: the server keeps them) asks
 * first; the server refuses one that a spread or an alert uses, and its sentence (which spreads
 * and alerts) is shown as it is.
 */
export function InstrumentList({ instruments }: { instruments: readonly InstrumentInUse[] }) {
  const flash = useFlash();
  const utils = trpc.useUtils();
  const remove = trpc.instruments.remove.useMutation({
    onSettled: () => utils.instruments.list.invalidate(),
  });

  const removeInstrument = (key: string) => {
    flash.clear();
    const question = `Remove ${key}? It will no longer be quoted or shown in the Prices table.`;
    if (!window.confirm(question)) return;
    remove.mutate(
      { key },
      {
        onSuccess: () => flash.showSuccess(`${key} removed.`),
        onError: (error) =>
          flash.showError(
            `${key} was not removed: ${failureText(error, { fallback: "the server refused." })}`,
          ),
      },
    );
  };

  const busyKey = remove.isPending ? remove.variables?.key : undefined;
  return (
    <>
      <FlashMessages flash={flash} />
      <ScrollRegion label="Instruments in use">
        <DataTable label="Instruments in use" className="instruments-table" columns={COLUMNS}>
          {byRoot(instruments).map((inst) => (
            <tr key={inst.key} data-instrument={inst.key} data-missing={inst.missing !== null}>
              <th scope="row" className="symbol instruments-table__key">
                {inst.key}
                {inst.builtIn && (
                  <span className="you-badge" title="A leg of the built-in spreads">
                    built-in
                  </span>
                )}
                {inst.missing && (
                  <span className="missing-note" data-col="missing">
                    {inst.missing}
                  </span>
                )}
              </th>
              <td data-col="name">{inst.name}</td>
              <td data-col="exchange">{inst.exchange}</td>
              <td data-col="contract" className="instruments-table__contract">
                {inst.contract ?? DASH}
              </td>
              <td data-col="expiry">{inst.expiry ? formatExpiry(inst.expiry) : DASH}</td>
              <td className="num" data-col="lot" title={`${inst.lotUnits} × ${inst.unit}`}>
                {inst.lotUnits}
                <span className="instruments-table__unit">{inst.unit}</span>
              </td>
              <td data-col="provider">{inst.provider ?? DASH}</td>
              <td className="actions">
                {!inst.builtIn && (
                  <button
                    type="button"
                    className="button button--danger button--small"
                    aria-label={`Remove ${inst.key}`}
                    disabled={busyKey === inst.key}
                    onClick={() => removeInstrument(inst.key)}
                  >
                    Remove
                  </button>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      </ScrollRegion>
    </>
  );
}
