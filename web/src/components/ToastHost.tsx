import { lazy, Suspense, useSyncExternalStore } from 'react';
import { toasts } from './toast';

// MUI's snackbar loads with the first toast: the login page shows without it (issue 25)
const Toaster = lazy(() => import('./Toaster'));

/** Where the app's toasts (components/toast.ts) show. */
export function ToastHost() {
  const any = useSyncExternalStore(toasts.subscribe, toasts.current).length > 0;
  return any ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}
