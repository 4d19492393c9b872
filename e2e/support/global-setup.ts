import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { buildClient, buildPage } from './web';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The built e2e test page (e2e/page), served by each test file with its own server. */
    e2ePage: string;
    /** The built client (the real app), served by each app test file with its own server. */
    clientDist: string;
  }
}

/** Builds the test page, the real worker and the real client once for every e2e file of the run. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [dist, client] = await Promise.all([
    buildPage(fileURLToPath(new URL('../page', import.meta.url))),
    buildClient(),
  ]);
  project.provide('e2ePage', dist);
  project.provide('clientDist', client);
  return async () => {
    await fs.rm(dist, { recursive: true, force: true });
    await fs.rm(client, { recursive: true, force: true });
  };
}
