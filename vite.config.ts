import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './scripts/vite-precompress.ts';

// The client is served by the QE server under /qe/; in development Vite proxies the API to it.
export default defineConfig({
  base: '/qe/',
  plugins: [react(), precompress()],
  build: { outDir: 'dist/client', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  server: {
    port: 5173,
    proxy: { '/v1': 'http://localhost:8080', '/ed': 'http://localhost:8080' },
  },
});
