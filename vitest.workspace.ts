import { defineConfig } from 'vitest/config';

/**
 * The root test config (vitest 4 has no workspace file: this is the config, with one project per
 * workspace). `npm test` runs it after typecheck, lint and the format check.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'shared-schema',
          include: ['shared-schema/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          include: ['server/src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'sync-worker',
          include: ['sync-worker/src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
    ],
  },
});
