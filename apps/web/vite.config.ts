import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const server = process.env.SPYGLASS_DEV_SERVER ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: {
      '/v1': server,
      '/healthz': server,
      '/ws': { target: server.replace(/^http/, 'ws'), ws: true },
    },
  },
  build: { outDir: 'dist', sourcemap: true, chunkSizeWarningLimit: 700 },
});
