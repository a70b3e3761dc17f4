import { config } from '../config';

/**
 * Whether the app can talk to its API (issue 25): the browser's online flag, and, when there is a
 * reason to doubt it (start, back online, the tab shown again, a call that failed on the network),
 * one GET of the public /api/version. While the API is unreachable it is asked again every 15 s so
 * the notice goes away by itself. Nothing is queued meanwhile: a failed action fails visibly.
 */
const RETRY_MS = 15_000;

let browserOnline = typeof navigator === 'undefined' ? true : navigator.onLine;
let apiReachable = true;
let retry: ReturnType<typeof setTimeout> | undefined;
let probing: Promise<void> | undefined;
const listeners = new Set<() => void>();

const emit = () => {
  for (const l of listeners) l();
};

export const connectivity = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  offline: () => !browserOnline || !apiReachable,
};

/** Asks the API whether it answers; any HTTP answer below 500 counts as reachable. */
export function probeApi(): Promise<void> {
  if (!browserOnline) return Promise.resolve();
  probing ??= fetch(`${config().apiUrl}/version`, { cache: 'no-store' })
    .then(
      (res) => res.status < 500,
      () => false,
    )
    .then((reachable) => {
      clearTimeout(retry);
      if (!reachable) retry = setTimeout(() => void probeApi(), RETRY_MS);
      if (reachable !== apiReachable) {
        apiReachable = reachable;
        emit();
      }
    })
    .finally(() => {
      probing = undefined;
    });
  return probing;
}

/** Starts following the browser's online flag and probes once; called once at start. */
export function watchConnectivity() {
  const setOnline = (online: boolean) => {
    browserOnline = online;
    emit();
    if (online) void probeApi();
  };
  window.addEventListener('online', () => setOnline(true));
  window.addEventListener('offline', () => setOnline(false));
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void probeApi();
  });
  void probeApi();
}
