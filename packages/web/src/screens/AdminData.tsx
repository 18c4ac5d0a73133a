import { AdminPage } from "../components/admin/AdminPage.tsx";
import { CoverageTable } from "../components/admin/CoverageTable.tsx";
import { Message } from "../components/ui/Message.tsx";
import { Section } from "../components/ui/Section.tsx";
import { useFetchHistoryAgain, useHistoryCoverage } from "../hooks/market/useHistoryCoverage.ts";

/** Admin → Data: where every instrument's past comes from, and fetching it again. */
export function AdminData() {
  const coverage = useHistoryCoverage();
  const fetchAgain = useFetchHistoryAgain();
  const onFetch = fetchAgain.isPending
    ? undefined
    : (keys?: string[]) => fetchAgain.mutate(keys ? { keys } : {});
  return (
    <AdminPage>
      {coverage.isError && (
        <Message tone="error">{`Error loading the coverage: ${coverage.error.message}`}</Message>
      )}
      {fetchAgain.isError && (
        <Message tone="error">{`Could not fetch again: ${fetchAgain.error.message}`}</Message>
      )}
      <Section
        title="History coverage"
        level={2}
        className="section--flush section--coverage"
        actions={
          <button
            type="button"
            className="button button--small"
            disabled={!onFetch}
            onClick={() => onFetch?.()}
          >
            Fetch all again
          </button>
        }
      >
        {coverage.isPending ? (
          <p className="muted">Loading coverage...</p>
        ) : (
          <CoverageTable
            instruments={coverage.data?.instruments ?? []}
            onFetch={onFetch && ((key) => onFetch([key]))}
          />
        )}
      </Section>
    </AdminPage>
  );
}
