import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));
const shared = fileURLToPath(new URL('../shared', import.meta.url));
const reactRouter = fileURLToPath(new URL('../node_modules/react-router/dist/production/', import.meta.url));

/**
 * The web app. Output `web/dist`, served by the local gateway (and CloudFront on AWS) with an SPA
 * fallback; runtime settings come from `/config.json`, never baked in.
 */
export default defineConfig(({ command }) => ({
  root,
  plugins: [
    react(),
    // Installable app (issue 25): the manifest, and the service worker web/src/pwa/sw.ts built with the
    // list of files to precache injected (the app shell); web/src/pwa/register.ts registers it.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/pwa',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      manifest: {
        id: '/',
        name: 'Inbox',
        short_name: 'Inbox',
        description: 'WhatsApp customer service',
        lang: 'pt',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: '#2563a8',
        background_color: '#f2f4f7',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: {
        // the app shell: every page's code, the styles, fonts and icons (never the API or config.json)
        globPatterns: ['**/*.{js,css,html,woff2,svg,png,webmanifest}'],
      },
    }),
  ],
  resolve: {
    // package.json "imports" maps #shared/* to ./shared/*.ts; the alias keeps that mapping explicit.
    alias: [
      { find: /^#shared\/(.*)$/, replacement: `${shared}/$1.ts` },
      // react-router's package exports name only its development build (dev warnings, bigger); a
      // production build takes the production one it ships beside it (issue 25: the login page's weight)
      ...(command === 'build'
        ? [
            { find: /^react-router$/, replacement: `${reactRouter}index.mjs` },
            { find: /^react-router\/dom$/, replacement: `${reactRouter}dom-export.mjs` },
          ]
        : []),
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // .vite/manifest.json: which files each page loads (tests/bench/bundle-size.ts measures it)
    manifest: true,
    reportCompressedSize: true,
    chunkSizeWarningLimit: 800,
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/config.json': 'http://127.0.0.1:8080',
      '/ws': { target: 'ws://127.0.0.1:8080', ws: true },
    },
  },
}));
