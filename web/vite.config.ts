import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));
const shared = fileURLToPath(new URL('../shared', import.meta.url));

/**
 * The web app. Output `web/dist`, served by the local gateway (and CloudFront on AWS) with an SPA
 * fallback; runtime settings come from `/config.json`, never baked in.
 */
export default defineConfig({
  root,
  plugins: [react()],
  resolve: {
    // package.json "imports" maps #shared/* to ./shared/*.ts; the alias keeps that mapping explicit.
    alias: [{ find: /^#shared\/(.*)$/, replacement: `${shared}/$1.ts` }],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
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
});
