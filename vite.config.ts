import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The client is served by the QE server under /qe/; in development Vite proxies the API to it.
export default defineConfig({
  base: '/qe/',
  plugins: [react()],
  build: { outDir: 'dist/client', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  server: {
    port: 5173,
    proxy: { '/v1': 'http://localhost:8080', '/ed': 'http://localhost:8080' },
  },
});
