import type { Plugin } from 'vite';

/**
 * The app runs under a CSP without 'unsafe-eval' (server/src/http/csp.ts). zod compiles object
 * parsers with `new Function` when it may, and probes for that when each object schema is made:
 * the refused probe is caught, but the browser still reports it as a violation (on every page
 * load, in the page and in the sync worker). With `jitless` zod never probes. Its config must be
 * set before zod's first schema is made, which happens while modules load, so no module of ours
 * can set it in time (the chunks a module imports run before it): every chunk of the build starts
 * by setting it where zod reads its config from (`globalThis.__zod_globalConfig`, which zod keeps
 * when it is already there).
 */
export function zodJitless(): Plugin {
  return {
    name: 'plant:zod-jitless',
    banner: () =>
      '(globalThis.__zod_globalConfig ??= {}).jitless = true; // no eval probe under the CSP',
  };
}
