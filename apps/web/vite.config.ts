import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const server = process.env.SPYGLASS_DEV_SERVER ?? 'http://localhost:8080';

export default defineConfig(({ command }) => {
  // Vite takes NODE_ENV from the environment, and test runners set it to `test`: a build started
  // from a test run (the e2e set-up) would then ship React's development build, three times the
  // size and much slower. The served client is always a production build.
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    plugins: [react()],
    // The device emulator and the companion page run the SDK's browser build from its sources.
    resolve: { alias: { '@spyglass/sdk': fileURLToPath(new URL('../../packages/sdk/src/browser.ts', import.meta.url)) } },
    server: {
      port: 5173,
      proxy: {
        '/v1': server,
        '/healthz': server,
        '/ws': { target: server.replace(/^http/, 'ws'), ws: true },
      },
    },
    build: {
      outDir: 'dist',
      sourcemap: true,
      chunkSizeWarningLimit: 700,
      rolldownOptions: {
        output: {
          codeSplitting: {
            // zod and the module that configures it share one chunk, which runs whole before any
            // chunk that builds schemas: jitless is set before a schema could probe eval, which
            // the page's Content-Security-Policy refuses (src/lib/zod-jitless.ts).
            groups: [{ name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]|[\\/]src[\\/]lib[\\/]zod-jitless\.ts$/ }],
          },
        },
      },
    },
  };
});
