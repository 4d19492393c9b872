import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/*
 * "A new area is one folder and one line": an area's routes.tsx that areas.ts does not list would
 * be routes nobody can open and menu entries nobody sees, with nothing failing. Read as files:
 * the route modules need the lingui macro's compile step, which this node project does not run.
 */
const features = new URL('../features/', import.meta.url);
const areasSource = readFileSync(new URL('./areas.ts', import.meta.url), 'utf8');

const withRoutes = readdirSync(features, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(new URL(`${d.name}/routes.tsx`, features)))
  .map((d) => d.name);

describe('the areas the root gathers', () => {
  it('finds the route modules (the areas of spec 000 §2)', () => {
    expect(withRoutes).toEqual(expect.arrayContaining(['alarms', 'devices', 'user', 'versions']));
  });

  it('lists every feature folder that has a routes.tsx', () => {
    const missing = withRoutes.filter(
      (name) => !areasSource.includes(`from '../features/${name}/routes';`),
    );
    expect(missing).toEqual([]);
  });
});
