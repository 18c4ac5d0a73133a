import { useMemo, useState } from "react";
import { Link } from "wouter";
import { ScreenAccount } from "../components/app/AccountMenu.tsx";
import { AppHeader } from "../components/app/AppHeader.tsx";
import { ScreenLink } from "../components/app/ScreenLink.tsx";
import { ServerUnreachable } from "../components/app/ServerUnreachable.tsx";
import { StreamStatus } from "../components/app/StreamStatus.tsx";
import { ClosedPositions } from "../components/positions/ClosedPositions.tsx";
import { ClosePositionDialog } from "../components/positions/ClosePositionDialog.tsx";
import { EditPositionDialog } from "../components/positions/EditPositionDialog.tsx";
import { useOpenPosition } from "../components/positions/OpenPosition.tsx";
import { PositionCards } from "../components/positions/PositionCards.tsx";
import { type PositionActions, PositionsTable } from "../components/positions/PositionsTable.tsx";
import { RollPositionDialog } from "../components/positions/RollPositionDialog.tsx";
import { Message } from "../components/ui/Message.tsx";
import { Panel } from "../components/ui/Panel.tsx";
import { useFeedHealth } from "../hooks/market/useFeedHealth.ts";
import { useMarketSnapshot } from "../hooks/market/useMarketSnapshot.ts";
import {
  campaignRealised,
  type LivePosition,
  positionTotals,
  useClosedPositions,
  useLivePositions,
  useOpenPositions,
  usePositionChanges,
  usePositionsFollow,
  withCampaigns,
} from "../hooks/positions/usePositions.ts";
import { useMediaQuery } from "../hooks/ui/useMediaQuery.ts";
import { useNow } from "../hooks/ui/useNow.ts";
import { providersByKey } from "../market/feedHealth.ts";
import type { SessionUser } from "../session/cache.ts";
import { failureText } from "../session/errors.ts";

/** Phones get cards: twelve columns do not fit 390 px, and a card reads top to bottom. */
const CARDS = "(max-width: 640px)";

/**
 * docs/user-guide.md "Positions (paper)": open positions marked live, closed trades, the summary.
 */
export function Positions({ user }: { user: SessionUser }) {
  const market = useMarketSnapshot();
  usePositionsFollow();
  return (
    <div className="page">
      <AppHeader title="Positions">
        <Link href="/">Back to Dashboard</Link>
        <ScreenLink href="/advanced-chart">Advanced Charts</ScreenLink>
        <ScreenAccount user={user} />
      </AppHeader>
      <main className="screen positions-screen">
        <PositionsToolbar market={market} />
        {market.unreachable && <ServerUnreachable />}
        <OpenPositions market={market} />
        <ClosedPositions />
      </main>
    </div>
  );
}

type Market = ReturnType<typeof useMarketSnapshot>;

function PositionsToolbar({ market }: { market: Market }) {
  const open = useOpenPosition();
  return (
    <div className="dashboard__toolbar">
      <button
        type="button"
        className="button button--primary button--small"
        onClick={() => open?.()}
      >
        Open position
      </button>
      <span className="muted positions-screen__paper">
        Paper positions: your own record, no order is sent to any broker.
      </span>
      <StreamStatus
        live={market.live}
        interrupted={market.interrupted}
        unreachable={market.unreachable}
      />
    </div>
  );
}

function OpenPositions({ market }: { market: Market }) {
  const list = useOpenPositions();
  const health = useFeedHealth();
  const now = useNow();
  const providers = useMemo(() => providersByKey(health.data?.providers), [health.data]);
  const freshness = useMemo(() => ({ now, providers }), [now, providers]);
  const closed = useClosedPositions();
  const live = useLivePositions(list.positions, market.snapshot, freshness);
  const realised = useMemo(
    () => campaignRealised([...list.positions, ...(closed.data?.positions ?? [])]),
    [list.positions, closed.data],
  );
  const positions = useMemo(() => withCampaigns(live, realised), [live, realised]);
  const totals = positionTotals(positions);
  const cards = useMediaQuery(CARDS);
  const changes = usePositionChanges();
  const [closing, setClosing] = useState<LivePosition>();
  const [editing, setEditing] = useState<LivePosition>();
  const [rolling, setRolling] = useState<LivePosition>();
  const [notice, setNotice] = useState<{ tone: "success" | "error"; text: string }>();
  const actions: PositionActions = {
    onClose: setClosing,
    onEdit: setEditing,
    onRoll: (position) => {
      setNotice(undefined);
      setRolling(position);
    },
    rolling: changes.roll.isPending
      ? (changes.roll.variables as { id?: number } | undefined)?.id
      : undefined,
  };
  const body = list.isPending ? (
    <p className="loading">Loading positions…</p>
  ) : list.isError ? (
    <Message tone="error">
      {failureText(list.error, { fallback: "Failed to load positions" })}
    </Message>
  ) : positions.length === 0 ? (
    <p className="muted my-spreads__empty">
      No open positions. Open one here, from a spread row's details or from the chart.
    </p>
  ) : cards ? (
    <PositionCards positions={positions} totals={totals} actions={actions} />
  ) : (
    <PositionsTable positions={positions} totals={totals} actions={actions} />
  );
  return (
    <Panel title="Open positions" className="panel--positions">
      {notice && (
        <Message tone={notice.tone} onDismiss={() => setNotice(undefined)}>
          {notice.text}
        </Message>
      )}
      {body}
      {closing && (
        <ClosePositionDialog
          // The live row while it lasts (its mark moves); the last one seen once it is closed.
          position={positions.find((p) => p.view.id === closing.view.id) ?? closing}
          onClose={() => setClosing(undefined)}
        />
      )}
      {rolling && (
        <RollPositionDialog
          position={positions.find((p) => p.view.id === rolling.view.id) ?? rolling}
          onClose={() => setRolling(undefined)}
          onRolled={(text) => {
            setRolling(undefined);
            setNotice({ tone: "success", text });
          }}
        />
      )}
      {editing && <EditPositionDialog position={editing} onClose={() => setEditing(undefined)} />}
    </Panel>
  );
}
