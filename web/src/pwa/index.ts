/**
 * The service worker from the page's side (issue 25). main.tsx calls `registerServiceWorker()` once
 * (built app only); Web Push subscribes through `serviceWorkerRegistration()`.
 */
let registering: Promise<ServiceWorkerRegistration | undefined> | undefined;

/** Registers /sw.js after the page has loaded; the workbox-window code is its own small chunk. */
export function registerServiceWorker() {
  if (registering || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  registering = import('./register').then(
    (m) => m.register(),
    () => undefined,
  );
}

/**
 * The active registration (its worker installed and running), or undefined where the browser has no
 * service workers or none is registered (the dev server).
 */
export async function serviceWorkerRegistration(): Promise<ServiceWorkerRegistration | undefined> {
  if (!registering) return undefined;
  return (await registering) ? navigator.serviceWorker.ready : undefined;
}
