import { Component, type ReactNode, Suspense } from "react";
import { Link } from "wouter";
import { Message } from "../ui/Message.tsx";
import { AppHeader } from "./AppHeader.tsx";
import { ChunkLoadError } from "./lazyPart.ts";

interface BoundaryProps {
  /** What shows if the code cannot be loaded. */
  failed: ReactNode;
  children: ReactNode;
}

/**
 * Catches a lazy part's ChunkLoadError only: any other error goes on up as before, so a bug is
 * not dressed as a deploy.
 */
class ChunkErrorBoundary extends Component<BoundaryProps, { error?: unknown }> {
  override state: { error?: unknown } = {};

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override render() {
    const { error } = this.state;
    if (error === undefined) return this.props.children;
    if (!(error instanceof ChunkLoadError)) throw error;
    return this.props.failed;
  }
}

/** The error box and its Reload: the one way out once a chunk name is stale. */
function NotLoaded({ what }: { what: string }) {
  return (
    <>
      <Message tone="error">{notLoaded(what)}</Message>
      <div className="form__actions">
        <button type="button" className="button button--primary" onClick={() => location.reload()}>
          Reload
        </button>
      </div>
    </>
  );
}

/** The one text of a chunk that did not arrive; `what` names the screen, dialog or section. */
function notLoaded(what: string): string {
  return `This ${what} could not be loaded: Spreadwatch may have been updated since this page opened, or the connection dropped. Reload to get the current version.`;
}

/**
 * A lazy screen: its header and "Loading..." while its code arrives (the page keeps its frame,
 * as while the session loads), and a Reload offer if the code cannot be fetched.
 */
export function LazyScreen({ title, children }: { title: string; children: ReactNode }) {
  return (
    <ChunkErrorBoundary
      failed={
        <div className="page">
          <AppHeader title={title}>
            <Link href="/">Back to Dashboard</Link>
          </AppHeader>
          <main className="screen chunk-error">
            <NotLoaded what="screen" />
          </main>
        </div>
      }
    >
      <Suspense
        fallback={
          <div className="page">
            <AppHeader title={title} />
            <p className="app-loading">Loading...</p>
          </div>
        }
      >
        {children}
      </Suspense>
    </ChunkErrorBoundary>
  );
}

/**
 * A lazy dialog or panel inside a loaded screen: nothing while its code arrives (it was
 * prefetched when the screen settled), a Reload offer above the page if it cannot be fetched.
 */
export function LazyDialog({ what, children }: { what: string; children: ReactNode }) {
  return (
    <ChunkErrorBoundary
      failed={
        <div className="chunk-error chunk-error--floating">
          <NotLoaded what={what} />
        </div>
      }
    >
      <Suspense fallback={null}>{children}</Suspense>
    </ChunkErrorBoundary>
  );
}
