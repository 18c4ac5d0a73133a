import { QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { Route, Switch } from "wouter";
import { LazyScreen } from "./components/app/LazyBoundary.tsx";
import { AdminOnly, SignedIn, SignedOut } from "./components/app/RouteGuards.tsx";
import { OpenPositionProvider } from "./components/positions/OpenPosition.tsx";
import { useHeartbeat } from "./hooks/session/useHeartbeat.ts";
import { Dashboard } from "./screens/Dashboard.tsx";
import { Login } from "./screens/Login.tsx";
import {
  Admin,
  AdminData,
  AdminInstruments,
  AdvancedChart,
  OrderTicket,
  Positions,
  Profile,
} from "./screens/lazyScreens.ts";
import { NotFound } from "./screens/NotFound.tsx";
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

/**
 * docs/spec.md §2: one line per screen with its access rule. The login and the dashboard are in
 * the entry; every other screen loads when opened (screens/lazyScreens.ts).
 */
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
        <SignedIn
          render={(user) => (
            <LazyScreen title="Positions">
              <Positions user={user} />
            </LazyScreen>
          )}
        />
      </Route>
      <Route path="/profile">
        <SignedIn
          render={(user) => (
            <LazyScreen title="Profile">
              <Profile user={user} />
            </LazyScreen>
          )}
        />
      </Route>
      <Route path="/ticket/:symbol">
        {(params) => (
          <SignedIn
            render={() => (
              <LazyScreen title="Order ticket">
                <OrderTicket symbol={params.symbol} />
              </LazyScreen>
            )}
          />
        )}
      </Route>
      <Route path="/advanced-chart">
        <SignedIn
          render={(user) => (
            <LazyScreen title="Advanced Spread Chart">
              <AdvancedChart user={user} />
            </LazyScreen>
          )}
        />
      </Route>
      <Route path="/admin/data">
        <AdminOnly
          render={() => (
            <LazyScreen title="Admin Panel">
              <AdminData />
            </LazyScreen>
          )}
        />
      </Route>
      <Route path="/admin/instruments">
        <AdminOnly
          render={() => (
            <LazyScreen title="Admin Panel">
              <AdminInstruments />
            </LazyScreen>
          )}
        />
      </Route>
      <Route path="/admin">
        <AdminOnly
          render={(user) => (
            <LazyScreen title="Admin Panel">
              <Admin user={user} />
            </LazyScreen>
          )}
        />
      </Route>
      {/* docs/decisions.md: an unknown path sends a signed-out visitor to /login, like every other page. */}
      <Route>
        <SignedIn render={() => <NotFound />} />
      </Route>
    </Switch>
  );
}
