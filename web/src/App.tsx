import { lazy, Suspense } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { ThemeModeProvider } from './theme/ThemeModeProvider';
import { AuthProvider } from './auth/AuthProvider';
import { FullPageSpinner, Guard } from './auth/Guard';
import { RealtimeProvider } from './realtime/RealtimeProvider';
import { Toaster } from './components/Toaster';
import { ConfirmProvider } from './components/ConfirmProvider';
import { activeRoutes } from './routes';

// The layout is loaded with the first private page, never with the login screen.
const MainLayout = lazy(() => import('./layout/MainLayout'));
const NotFound = lazy(() => import('./components/NotFound'));

export function App() {
  const list = activeRoutes();
  return (
    <ThemeModeProvider>
      <SWRConfig value={{ revalidateOnFocus: false, shouldRetryOnError: false }}>
        <AuthProvider>
          <BrowserRouter>
            <RealtimeProvider>
              <ConfirmProvider>
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
                          <MainLayout />
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
              </ConfirmProvider>
            </RealtimeProvider>
          </BrowserRouter>
        </AuthProvider>
      </SWRConfig>
      <Toaster />
    </ThemeModeProvider>
  );
}
