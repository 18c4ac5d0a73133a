import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { Route, Switch } from "wouter";
import { Dashboard } from "./screens/Dashboard.tsx";
import { NotFound } from "./screens/NotFound.tsx";
import { createTrpcClient, trpc } from "./trpc.ts";

export function App() {
  const [queryClient] = useState(() => new QueryClient());
  const [trpcClient] = useState(createTrpcClient);
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <Routes />
      </QueryClientProvider>
    </trpc.Provider>
  );
}

/** One line per screen; guarded routes (/login, /profile, /admin…) slot in here. */
function Routes() {
  return (
    <Switch>
      <Route path="/" component={Dashboard} />
      <Route component={NotFound} />
    </Switch>
  );
}
