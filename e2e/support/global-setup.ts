import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { buildPage } from './web';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The built e2e test page (e2e/page), served by each test file with its own server. */
    e2ePage: string;
  }
}

/** Builds the test page and the real worker once for every e2e file of the run. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dist = await buildPage(fileURLToPath(new URL('../page', import.meta.url)));
  project.provide('e2ePage', dist);
  return () => fs.rm(dist, { recursive: true, force: true });
}
