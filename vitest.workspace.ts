import { defineConfig } from 'vitest/config';

/** The sync worker's tests that add RxDB's dev-mode plugin (global in rxdb): a project of their own. */
const DEV_MODE_FILES = [
  'sync-worker/src/store/store.test.ts',
  'sync-worker/src/store/store-writes.test.ts',
];

/**
 * How long `expect.poll` waits in the Node projects (vitest's default is 1 s): what a background
 * round, a broker hop or Postgres makes can take longer on a busy machine, and a poll that gives
 * up early fails a test whose feature works. Within their 30 s test timeout.
 */
const NODE_POLL = { poll: { timeout: 20_000 } };

/**
 * The root test config (vitest 4 has no workspace file: this is the config, with one project per
 * workspace). `npm test` runs it after typecheck, lint and the format check.
 */
export default defineConfig({
  test: {
    // Three files at a time on a 2-core machine (vitest's default is one): much of a test's time
    // is waiting (servers, browsers, brokers, timers), which a third file fills; two left about a
    // fifth of the CPU idle (issue 29: 1,440 s of CPU in 897 s). Every test waits for what it
    // checks, never for a fixed time, so a busy neighbour only makes it slower; a test with a
    // time limit gives it room for a load of 17 (the sandbox tests). Four ran the suite in 715 s
    // against three's 728 s: CPU-bound from here, so less work per test is what shortens it.
    maxWorkers: 3,
    // At the end: the 10 slowest files with their times (scripts/slowest-files.ts).
    reporters: ['default', './scripts/slowest-files.ts'],
    projects: [
      {
        test: {
          name: 'scripts',
          include: ['scripts/**/*.test.ts'],
          environment: 'node',
        },
      },
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
          // The files of a worker share one module graph (issue 29): the server's modules are
          // loaded once per worker, not once per file (figures in server CONTEXT). A file must
          // leave no global behind: every server it starts it closes, every timer it fakes it
          // restores, every env it sets it resets.
          isolate: false,
          include: ['server/src/**/*.test.ts'],
          // Several processes on Postgres and Redis, and the harness's Postgres side: in
          // server-postgres only.
          exclude: ['server/src/cluster/**', 'server/src/testing/content-hashes-postgres.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 30_000,
          expect: NODE_POLL,
        },
      },
      {
        test: {
          // The same server suite on Postgres (issue 14): one throwaway server for the run, a new
          // database per test server (server/src/testing/test-database.ts); and the cluster
          // tests (server/src/cluster/), several processes on Postgres and a throwaway Redis.
          name: 'server-postgres',
          isolate: false, // as `server`
          include: ['server/src/**/*.test.ts'],
          // Files that never open the platform's database: once (in `server`) is enough.
          exclude: [
            'server/src/config.test.ts',
            'server/src/http/context.test.ts',
            'server/src/broker/gateway-acl.test.ts',
            'server/src/sandbox/**',
            'server/src/gateways/sandbox-preprocessor.test.ts',
            'server/src/gateways/live-values.test.ts',
            'server/src/notify/messages.test.ts',
            'server/src/notify/channels/mail-channel.test.ts',
            'server/src/notify/channels/public-address.test.ts',
            'server/src/routes/catalog-coverage.test.ts',
            'server/src/auth/totp.test.ts',
            'server/src/auth/webauthn.test.ts',
            'server/src/backup/sqlite-snapshot.test.ts',
          ],
          environment: 'node',
          globalSetup: ['server/src/testing/postgres-global-setup.ts'],
          env: { PLANT_TEST_DATABASE: 'postgres' },
          testTimeout: 30_000,
          hookTimeout: 30_000,
          expect: NODE_POLL,
        },
      },
      {
        test: {
          name: 'sync-worker',
          // As `server`: the worker's modules (RxDB, Dexie, zod, mqtt.js, the server for the engine
          // tests) once per worker, not once per file (issue 29: the project took 37 to 41 s of CPU
          // against 65 to 69 s isolated, 21 to 24 s against 35 to 37 s). A file closes every store,
          // server and broker it opens, and restores the timers it fakes.
          isolate: false,
          include: ['sync-worker/src/**/*.test.ts'],
          exclude: DEV_MODE_FILES,
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 30_000,
          expect: NODE_POLL,
        },
      },
      {
        test: {
          // Isolated: these add RxDB's dev-mode plugin, which is global in rxdb and refuses the
          // other files' storages without a validator.
          name: 'sync-worker-dev-mode',
          include: DEV_MODE_FILES,
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 30_000,
          expect: NODE_POLL,
        },
      },
      {
        test: {
          // The edge program against real protocol peers on loopback (and the real server).
          name: 'gateway-agent',
          // As `server`: node-opcua, the server and the protocol peers once per worker (issue 29:
          // 60 to 75 s of CPU against 91 s isolated). The workers that died here in earlier runs
          // were node-snap7's (gateway-agent CONTEXT): testing/s7-server.ts keeps its servers.
          isolate: false,
          include: ['gateway-agent/src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          expect: NODE_POLL,
        },
      },
      {
        test: {
          // The client's pure logic (state, helpers); its screens are tested in e2e/.
          name: 'client',
          include: ['client/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          // Browser tests: headless Chromium (Debian's) drives the real worker against the real
          // server. Each file starts its own server and browsers on free ports, so two files run
          // side by side like the other projects' (maxWorkers above).
          name: 'e2e',
          // As `server`: a worker imports the server, Playwright and the support once, not once
          // per file (that was 4 s of CPU a file). A file closes every server, browser and proxy
          // it starts (E2e.close), and sets no global it does not reset.
          isolate: false,
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          // Postgres and Redis too: e2e/cluster.test.ts runs two server processes on them.
          globalSetup: [
            'e2e/support/global-setup.ts',
            'server/src/testing/postgres-global-setup.ts',
          ],
          // A test in which the browser refused something under the app's CSP fails.
          setupFiles: ['e2e/support/test-checks.ts'],
          fileParallelism: true,
          testTimeout: 120_000,
          hookTimeout: 60_000,
          // Every poll asks the page (a role query walks its accessibility tree): at 200 ms
          // rather than 50 the browser tests took an eighth less CPU and ran a tenth faster.
          expect: { poll: { timeout: 60_000, interval: 200 } },
        },
      },
    ],
  },
});
