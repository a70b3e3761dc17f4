/// <reference types="vite/client" />
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { loadConfig } from './config';
import { initI18n } from './i18n';
import { App } from './App';
import { registerServiceWorker } from './pwa';
import { watchConnectivity } from './pwa/connectivity';

void loadConfig().then(() => {
  initI18n();
  watchConnectivity();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
  // the dev server serves no service worker (it would cache modules the server rewrites)
  if (import.meta.env.PROD) registerServiceWorker();
});
