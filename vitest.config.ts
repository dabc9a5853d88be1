import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Groups run one after another, two files at a time: on a 2-core machine, API suites and
// Chromium competing for the CPU turn timeouts into flakes.
const apiProject = (engine: 'sqlite' | 'postgres', groupOrder: number) => ({
  extends: true as const,
  test: {
    name: `api-${engine}`,
    sequence: { groupOrder },
    maxWorkers: 2,
    include: ['apps/server/test/**/*.test.ts'],
    env: { SPYGLASS_TEST_ENGINE: engine },
    globalSetup: ['apps/server/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  // Inside the repository the SDK is used from its sources (tsconfig.json maps it the same way);
  // its package's exports name the built dist/ that apps install.
  resolve: { alias: { '@spyglass/sdk': fileURLToPath(new URL('./packages/sdk/src/node.ts', import.meta.url)) } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          maxWorkers: 2,
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts'],
          testTimeout: 20_000,
        },
      },
      apiProject('sqlite', 1),
      apiProject('postgres', 2),
      {
        extends: true,
        test: {
          name: 'e2e',
          sequence: { groupOrder: 3 },
          include: ['e2e/**/*.test.ts'],
          globalSetup: ['e2e/support/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // A page's answer to a click or a reload takes more than expect.poll's default second on a busy machine.
          expect: { poll: { timeout: 10_000 } },
          maxWorkers: 2,
        },
      },
    ],
  },
});
