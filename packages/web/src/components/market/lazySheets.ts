import type { ComponentProps } from "react";
import { lazyPart } from "../app/lazyPart.ts";
import type { DefinitionDetailsSheet as DefinitionSheet } from "../spreads/DefinitionDetailsSheet.tsx";
import type { RowDetailsSheet as RowSheet } from "./RowDetailsSheet.tsx";

// A row's details sheet opens on a tap (phones) or a click: the sheet and its content are
// fetched after the dashboard shows, not with it (docs/decisions.md "What the first load
// carries").

export const RowDetailsSheet = lazyPart<ComponentProps<typeof RowSheet>>(() =>
  import("./RowDetailsSheet.tsx").then((module) => module.RowDetailsSheet),
);
export const DefinitionDetailsSheet = lazyPart<ComponentProps<typeof DefinitionSheet>>(() =>
  import("../spreads/DefinitionDetailsSheet.tsx").then((module) => module.DefinitionDetailsSheet),
);
