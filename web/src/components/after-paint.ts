import { useEffect, useState, type ComponentType } from 'react';

/** A component fetched on demand: `load()` fetches it once (callers may start it early). */
export interface Deferred<P> {
  load: () => Promise<void>;
  current: () => ComponentType<P> | null;
}

/**
 * A component whose code is fetched just after the page shows instead of before (issue 25: the
 * ticket page's first download); drawn through `useAfterPaint`.
 */
export function afterPaint<P>(importer: () => Promise<{ default: ComponentType<P> }>): Deferred<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<void> | undefined;
  return {
    load: () =>
      (loading ??= importer().then((m) => {
        loaded = m.default;
      })),
    current: () => loaded,
  };
}

/** The deferred component, or null until it arrives (then the caller draws again). */
export function useAfterPaint<P>(deferred: Deferred<P>): ComponentType<P> | null {
  const [, setReady] = useState(deferred.current() !== null);
  useEffect(() => {
    if (!deferred.current()) void deferred.load().then(() => setReady(true));
  }, [deferred]);
  return deferred.current();
}
