import { QueryClientProvider } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import { Route, Switch } from "wouter";
import { AdminOnly, SignedIn, SignedOut } from "./components/app/RouteGuards.tsx";
import { OpenPositionProvider } from "./components/positions/OpenPosition.tsx";
import { useHeartbeat } from "./hooks/session/useHeartbeat.ts";
import { Admin } from "./screens/Admin.tsx";
import { AdminData } from "./screens/AdminData.tsx";
import { AdminInstruments } from "./screens/AdminInstruments.tsx";
import { Dashboard } from "./screens/Dashboard.tsx";
import { Login } from "./screens/Login.tsx";
import { NotFound } from "./screens/NotFound.tsx";
import { OrderTicket } from "./screens/OrderTicket.tsx";
import { Positions } from "./screens/Positions.tsx";
import { Profile } from "./screens/Profile.tsx";
import { OtherSessionsNoticeProvider } from "./session/notice.tsx";
import { createQueryClient } from "./session/queryClient.ts";
import { useSession } from "./session/useSession.ts";
import { createTrpcClient, trpc } from "./trpc.ts";

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [trpcClient] = useState(createTrpcClient);
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <OtherSessionsNoticeProvider>
          <OpenPositionProvider>
            <Routes />
          </OpenPositionProvider>
        </OtherSessionsNoticeProvider>
      </QueryClientProvider>
    </trpc.Provider>
  );
}

// uPlot and the chart code load only when the chart is opened: the dashboard starts lighter.
const AdvancedChart = lazy(() =>
  import("./screens/AdvancedChart.tsx").then((module) => ({ default: module.AdvancedChart })),
);

/** docs/spec.md §2: one line per screen with its access rule. */
function Routes() {
  const session = useSession();
  useHeartbeat(session.state === "signed-in");
  if (session.state === "loading") return <p className="app-loading">Loading...</p>;
  return (
    <Switch>
      <Route path="/login">
        <SignedOut>
          <Login />
        </SignedOut>
      </Route>
      <Route path="/">
        <SignedIn render={(user) => <Dashboard user={user} />} />
      </Route>
      <Route path="/positions">
        <SignedIn render={(user) => <Positions user={user} />} />
      </Route>
      <Route path="/profile">
        <SignedIn render={(user) => <Profile user={user} />} />
      </Route>
      <Route path="/ticket/:symbol">
        {(params) => <SignedIn render={() => <OrderTicket symbol={params.symbol} />} />}
      </Route>
      <Route path="/advanced-chart">
        <SignedIn
          render={(user) => (
            <Suspense fallback={<p className="app-loading">Loading...</p>}>
              <AdvancedChart user={user} />
            </Suspense>
          )}
        />
      </Route>
      <Route path="/admin/data">
        <AdminOnly render={() => <AdminData />} />
      </Route>
      <Route path="/admin/instruments">
        <AdminOnly render={() => <AdminInstruments />} />
      </Route>
      <Route path="/admin">
        <AdminOnly render={(user) => <Admin user={user} />} />
      </Route>
      {/* docs/decisions.md: an unknown path sends a signed-out visitor to /login, like every other page. */}
      <Route>
        <SignedIn render={() => <NotFound />} />
      </Route>
    </Switch>
  );
}
