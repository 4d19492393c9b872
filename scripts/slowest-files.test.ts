import { describe, expect, it } from 'vitest';
import { slowestLines } from './slowest-files';

describe('the slowest files printed at the end of npm test', () => {
  it('lists the ten slowest, slowest first, with seconds and project', () => {
    const files = Array.from({ length: 14 }, (_, i) => ({
      project: i % 2 === 0 ? 'e2e' : 'server-postgres',
      file: `f${i}.test.ts`,
      ms: (i + 1) * 1000 + 200,
    }));
    const lines = slowestLines(files);
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe('The 10 slowest test files (import, hooks and tests of each):');
    expect(lines[1]).toBe('    14.2 s  server-postgres  f13.test.ts');
    expect(lines[2]).toBe('    13.2 s  e2e              f12.test.ts');
    expect(lines[10]).toBe('     5.2 s  e2e              f4.test.ts');
  });

  it('prints nothing for a run without files', () => {
    expect(slowestLines([])).toEqual([]);
  });
});
