import { type ComponentType, type LazyExoticComponent, lazy } from "react";

/**
 * A screen's or dialog's code that did not arrive: the server was redeployed since this page
 * opened (its hashed chunk names changed) or the network dropped. Only a reload helps, so the
 * boundary (LazyBoundary.tsx) offers one instead of a blank page (docs/decisions.md "What the
 * first load carries").
 */
export class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super("This part of the app could not be loaded.", { cause });
    this.name = "ChunkLoadError";
  }
}

/** A lazy component that can also be fetched ahead of its first render (a hovered link). */
export type LazyPart<P> = LazyExoticComponent<ComponentType<P>> & { preload: () => void };

/**
 * React.lazy over a loader that names the export it wants, plus `preload`. Render and preload
 * share one request; a failed one is forgotten, so the next attempt asks the server again.
 */
export function lazyPart<P>(load: () => Promise<ComponentType<P>>): LazyPart<P> {
  let pending: Promise<ComponentType<P>> | undefined;
  const fetchOnce = () => {
    pending ??= load().catch((cause: unknown) => {
      pending = undefined;
      throw new ChunkLoadError(cause);
    });
    return pending;
  };
  const part = lazy(() => fetchOnce().then((component) => ({ default: component })));
  // A prefetch that fails says nothing: the render that needs the code asks again and shows it.
  return Object.assign(part, { preload: () => void fetchOnce().catch(() => undefined) });
}
