import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { PROFILES_ENV } from './browser';
import { buildClient, buildPage } from './web';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The built e2e test page (e2e/page), served by each test file with its own server. */
    e2ePage: string;
    /** The built client (the real app), served by each app test file with its own server. */
    clientDist: string;
  }
}

/**
 * Builds the test page, the real worker and the real client once for every e2e file of the run,
 * and makes the folder the run's browser profiles go in (browser.ts): warm browsers live as long
 * as their worker, which vitest ends without a word, so their profiles go with the run's end.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const profiles = await fs.mkdtemp(path.join(os.tmpdir(), 'plant-e2e-profiles-'));
  // The test workers start after the global setup: they inherit it.
  process.env[PROFILES_ENV] = profiles;
  const [dist, client] = await Promise.all([
    buildPage(fileURLToPath(new URL('../page', import.meta.url))),
    buildClient(),
  ]);
  project.provide('e2ePage', dist);
  project.provide('clientDist', client);
  return async () => {
    await fs.rm(dist, { recursive: true, force: true });
    await fs.rm(client, { recursive: true, force: true });
    await fs.rm(profiles, { recursive: true, force: true });
  };
}
