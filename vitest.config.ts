import { defineConfig } from 'vitest/config';

const apiProject = (engine: 'sqlite' | 'postgres') => ({
  test: {
    name: `api-${engine}`,
    include: ['apps/server/test/**/*.test.ts'],
    env: { SPYGLASS_TEST_ENGINE: engine },
    globalSetup: ['apps/server/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts'],
          testTimeout: 20_000,
        },
      },
      apiProject('sqlite'),
      apiProject('postgres'),
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Each file drives its own Chromium and server; two at a time fits the 2-core machine.
          maxWorkers: 2,
        },
      },
    ],
  },
});
