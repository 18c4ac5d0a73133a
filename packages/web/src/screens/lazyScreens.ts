import { lazyPart } from "../components/app/lazyPart.ts";
import type { SessionUser } from "../session/cache.ts";

// The screens a first visit does not need, each in its own chunk: the entry carries the login
// and the dashboard only (docs/decisions.md "What the first load carries").

export const Positions = lazyPart<{ user: SessionUser }>(() =>
  import("./Positions.tsx").then((module) => module.Positions),
);
export const Profile = lazyPart<{ user: SessionUser }>(() =>
  import("./Profile.tsx").then((module) => module.Profile),
);
export const OrderTicket = lazyPart<{ symbol: string }>(() =>
  import("./OrderTicket.tsx").then((module) => module.OrderTicket),
);
// uPlot, the chart and the backtests.
export const AdvancedChart = lazyPart<{ user: SessionUser }>(() =>
  import("./AdvancedChart.tsx").then((module) => module.AdvancedChart),
);
export const Admin = lazyPart<{ user: SessionUser }>(() =>
  import("./Admin.tsx").then((module) => module.Admin),
);
export const AdminData = lazyPart<object>(() =>
  import("./AdminData.tsx").then((module) => module.AdminData),
);
export const AdminInstruments = lazyPart<object>(() =>
  import("./AdminInstruments.tsx").then((module) => module.AdminInstruments),
);

/** Which lazy screen a path opens (App.tsx's routes), for a link to fetch it before the click. */
export function lazyScreenOf(href: string): { preload: () => void } | undefined {
  const path = href.split(/[?#]/)[0];
  if (path === "/positions") return Positions;
  if (path === "/profile") return Profile;
  if (path === "/advanced-chart") return AdvancedChart;
  if (path?.startsWith("/ticket/")) return OrderTicket;
  if (path === "/admin") return Admin;
  if (path === "/admin/data") return AdminData;
  if (path === "/admin/instruments") return AdminInstruments;
  return undefined;
}
