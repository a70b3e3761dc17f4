/// <reference lib="webworker" />
/**
 * The service worker (issue 25), built by vite-plugin-pwa (injectManifest) into /sw.js.
 *
 * - The app shell (index.html, every JS and CSS chunk, fonts, icons) is precached, so the app opens
 *   without a network; any page address gets the cached index.html.
 * - The API (/api/*), the WebSocket (/ws) and the simulator (/@...) are never handled here: they go
 *   to the network as if there were no worker. Only /config.json is cached, network first, so the
 *   shell still boots offline with the host's settings.
 * - Nothing is queued while offline (no background sync, on purpose): an action that fails says so,
 *   and the agent repeats it when the connection is back, instead of a reply leaving hours later.
 * - Web Push: `push` shows the notification, `notificationclick` opens the app at its address (a
 *   ticket's /tickets/<uuid>) in an open window of the app if there is one (open-app.ts).
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkFirst } from 'workbox-strategies';
import { openApp } from './open-app';
import { parsePush, safeUrl } from './push-payload';

declare const self: ServiceWorkerGlobalScope;

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

registerRoute(
  new NavigationRoute(createHandlerBoundToURL('index.html'), {
    denylist: [/^\/api(\/|$)/, /^\/ws(\/|$)/, /^\/@/, /^\/config\.json$/],
  }),
);
registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname === '/config.json',
  new NetworkFirst({ cacheName: 'runtime-config', networkTimeoutSeconds: 5 }),
);

// A new version waits until the page's "Update" button asks it to take over (then the page reloads).
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
// The first version takes the open page at once, so it works offline without a reload.
clientsClaim();

self.addEventListener('push', (event) => {
  const push = parsePush(event.data?.text());
  event.waitUntil(
    self.registration.showNotification(push.title, {
      body: push.body,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      // one notification per tag (a ticket): a newer push replaces the older one
      tag: push.tag,
      data: { url: push.url },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = safeUrl((event.notification.data as { url?: unknown } | null)?.url, self.location.origin);
  event.waitUntil(openApp(self.clients, url));
});
