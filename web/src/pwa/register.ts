/// <reference types="vite-plugin-pwa/vanillajs" />
import { registerSW } from 'virtual:pwa-register';
import { offerUpdate } from './update';

/** A page left open all day never navigates, so it asks for a new version itself. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

export function register(): Promise<ServiceWorkerRegistration | undefined> {
  return new Promise((resolve) => {
    const activate = registerSW({
      // a new version is installed and waiting: the page offers "Update" (it then reloads)
      onNeedRefresh: () => offerUpdate(() => void activate()),
      onRegisteredSW: (_url, registration) => {
        if (registration) setInterval(() => void registration.update().catch(() => undefined), UPDATE_CHECK_MS);
        resolve(registration);
      },
      onRegisterError: () => resolve(undefined),
    });
  });
}
