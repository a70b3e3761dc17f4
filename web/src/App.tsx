import { lazy, Suspense } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { ThemeModeProvider } from './theme/ThemeModeProvider';
import { AuthProvider } from './auth/AuthProvider';
import { FullPageSpinner, Guard } from './auth/Guard';
import { ToastHost } from './components/ToastHost';
import { preloadNamespaces } from './i18n';
import { PwaNotices } from './pwa/PwaNotices';
import { activeRoutes, pagesWithoutMui } from './routes';

// The signed-in shell (SWR, realtime, layout) loads with the first private page, never with the login
// screen; the strings of the layout and of the landing page (/tickets) load beside it, not after it.
const SignedIn = lazy(() => {
  void preloadNamespaces(['chats', 'tickets', 'sla']);
  return import('./auth/SignedIn');
});
const NotFound = lazy(() => import('./components/NotFound'));
// MUI's theme for the public pages built with MUI (signup, reset); the login page is drawn without it
const MuiTheme = lazy(() => import('./theme/MuiTheme'));

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
                        {pagesWithoutMui.has(path) ? (
                          <Component />
                        ) : (
                          <MuiTheme baseline>
                            <Component />
                          </MuiTheme>
                        )}
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
      <ToastHost />
      <PwaNotices />
    </ThemeModeProvider>
  );
}
