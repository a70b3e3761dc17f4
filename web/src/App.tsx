import { lazy, Suspense } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { ThemeModeProvider } from './theme/ThemeModeProvider';
import { AuthProvider } from './auth/AuthProvider';
import { FullPageSpinner, Guard } from './auth/Guard';
import { Toaster } from './components/Toaster';
import { preloadNamespaces } from './i18n';
import { PwaNotices } from './pwa/PwaNotices';
import { activeRoutes } from './routes';

// The signed-in shell (SWR, realtime, layout) loads with the first private page, never with the login
// screen; the strings of the layout and of the landing page (/tickets) load beside it, not after it.
const SignedIn = lazy(() => {
  void preloadNamespaces(['chats', 'billing', 'announcements', 'tickets', 'contacts', 'sla']);
  return import('./auth/SignedIn');
});
const NotFound = lazy(() => import('./components/NotFound'));

export function App() {
  const list = activeRoutes();
  return (
    <ThemeModeProvider>
      <AuthProvider>
        <BrowserRouter>
          <Suspense fallback={<FullPageSpinner />}>
            <Routes>
              {list
                .filter((r) => r.kind === 'public')
                .map(({ path, Component }) => (
                  <Route
                    key={path}
                    path={path}
                    element={
                      <Guard kind="public">
                        <Component />
                      </Guard>
                    }
                  />
                ))}
              <Route
                element={
                  <Guard kind="private">
                    <SignedIn />
                  </Guard>
                }
              >
                {list
                  .filter((r) => r.kind === 'private')
                  .map(({ path, Component }) => (
                    <Route key={path} path={path} element={<Component />} />
                  ))}
                <Route path="*" element={<NotFound />} />
              </Route>
            </Routes>
          </Suspense>
        </BrowserRouter>
      </AuthProvider>
      <Toaster />
      <PwaNotices />
    </ThemeModeProvider>
  );
}
