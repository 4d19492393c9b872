import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/** One test file's time: importing it (collect) and running its hooks and tests. */
export interface FileTime {
  readonly project: string;
  readonly file: string;
  readonly ms: number;
}

/** The `count` slowest of `files`, slowest first. */
export function slowest(files: readonly FileTime[], count: number): FileTime[] {
  return [...files].sort((a, b) => b.ms - a.ms).slice(0, count);
}

/** The lines `npm test` ends with: the slowest files, so a new slowdown is seen the day it comes. */
export function slowestLines(files: readonly FileTime[], count = 10): string[] {
  const top = slowest(files, count);
  if (top.length === 0) return [];
  const width = Math.max(...top.map((f) => f.project.length));
  return [
    `The ${top.length} slowest test files (import, hooks and tests of each):`,
    ...top.map(
      (f) => `  ${(f.ms / 1000).toFixed(1).padStart(6)} s  ${f.project.padEnd(width)}  ${f.file}`,
    ),
  ];
}

/**
 * A vitest reporter beside the default one (vitest.workspace.ts): at the end of a run it prints
 * the 10 slowest test files with their times (issue 29).
 */
export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const files = modules.map((m) => {
      const d = m.diagnostic();
      return {
        project: m.project.name,
        file: m.relativeModuleId,
        ms: d.collectDuration + d.setupDuration + d.duration,
      };
    });
    // Every file's time, slowest first, as JSON where PLANT_TEST_TIMES says: to see where a whole
    // run's time goes, not only its ten slowest.
    const all = process.env.PLANT_TEST_TIMES;
    if (all) writeFileSync(all, JSON.stringify(slowest(files, files.length), null, 1));
    const lines = slowestLines(files);
    // eslint-disable-next-line no-console -- the reporter's whole output
    if (lines.length > 0) console.log(`\n${lines.join('\n')}\n`);
  }
}
