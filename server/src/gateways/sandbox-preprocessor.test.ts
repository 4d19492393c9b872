import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PointValue } from '@plant/shared-schema';
import type { Logger } from '../logger';
import { CODE_NOT_RUN, CODE_TOO_SLOW } from '../sandbox/quickjs-sandbox';
import { CODE_NOT_VALID } from '@plant/shared-schema';
import type { Preprocessor } from './ingest';
import { sandboxPreprocessor, sharedSandboxCount } from './sandbox-preprocessor';

/** A logger that keeps what it was told. */
function recordingLog(): Logger & {
  warnings: { msg: string; fields?: Record<string, unknown> }[];
} {
  const warnings: { msg: string; fields?: Record<string, unknown> }[] = [];
  const ignore = () => undefined;
  return {
    warnings,
    debug: ignore,
    info: ignore,
    error: ignore,
    warn: (msg, fields) => warnings.push(fields === undefined ? { msg } : { msg, fields }),
  };
}

const inputs = (...values: PointValue[]) =>
  values.map((value, i) => ({
    value,
    ts: 1_000 + i,
    previous: i === 0 ? null : (values[i - 1] ?? null),
  }));

describe('sandboxPreprocessor', () => {
  let log: ReturnType<typeof recordingLog>;
  let now = 0;
  let preprocessor: Preprocessor & { dispose(): void };

  beforeAll(async () => {
    log = recordingLog();
    preprocessor = await sandboxPreprocessor(log, {
      // A limit the few values here never reach however busy the machine (at 20 ms, `$value * 2`
      // over three values once ran out of it in a full run); the endless loops still end in it.
      sandbox: { timeLimitMs: 500, graceMs: 100 },
      now: () => now,
    });
  });
  afterAll(() => preprocessor.dispose());

  it('runs the code over the values', () => {
    expect(
      preprocessor.run(
        'let $x = $value * 2; if ($x > 100) { return null; } return $x;',
        inputs(1, 60, 7),
      ),
    ).toEqual([{ kind: 'value', value: 2 }, { kind: 'dropped' }, { kind: 'value', value: 14 }]);
    expect(preprocessor.run('return $value - ($previous ?? $value);', inputs(10, 15, 12))).toEqual([
      { kind: 'value', value: 0 },
      { kind: 'value', value: 5 },
      { kind: 'value', value: -3 },
    ]);
  });

  it('refuses code that breaks the rules without running it', () => {
    // Valid JavaScript that would return 2, but its variable has no `$`.
    for (const code of ['let y = 2; return y;', 'return $value', 'x = 1', 'let $x = 1;']) {
      expect(preprocessor.run(code, inputs(1, 2)), code).toEqual([
        { kind: 'error', error: CODE_NOT_VALID },
        { kind: 'error', error: CODE_NOT_VALID },
      ]);
    }
    expect(CODE_NOT_VALID).toBe('This code is not valid');
  });

  it('keeps the values of blank code, and answers nothing for no values', () => {
    expect(preprocessor.run('  \n', inputs(1, 'a', true))).toEqual([
      { kind: 'value', value: 1 },
      { kind: 'value', value: 'a' },
      { kind: 'value', value: true },
    ]);
    expect(preprocessor.run('while (true) {}', [])).toEqual([]);
  });

  it('warns about code that runs too long, once per code per minute', () => {
    const before = log.warnings.length;
    const loop = 'while (true) {}\nreturn $value;';
    const refused = preprocessor.run(loop, inputs(1, 2));
    expect(refused).toEqual([
      { kind: 'error', error: CODE_TOO_SLOW },
      { kind: 'error', error: CODE_TOO_SLOW },
    ]);
    now += 30_000;
    preprocessor.run(loop, inputs(3));
    expect(log.warnings.slice(before)).toHaveLength(1);
    expect(log.warnings[before]).toMatchObject({
      msg: 'pre-processing code stopped',
      fields: { error: CODE_TOO_SLOW, values: 2, chars: loop.length },
    });
    now += 31_000;
    preprocessor.run(loop, inputs(4));
    expect(log.warnings.slice(before)).toHaveLength(2);
    // Others are served meanwhile.
    expect(preprocessor.run('return $value + 1;', inputs(41))).toEqual([
      { kind: 'value', value: 42 },
    ]);
  });

  it('does not warn about values the code itself refuses', () => {
    const before = log.warnings.length;
    expect(preprocessor.run('throw new Error("no");', inputs(1))).toMatchObject([
      { kind: 'error' },
    ]);
    expect(log.warnings.length).toBe(before);
  });
});

describe('the shared sandbox', () => {
  it('serves several preprocessors, and one made soon after the last is disposed takes it over', async () => {
    const a = await sandboxPreprocessor(recordingLog());
    const made = sharedSandboxCount();
    const b = await sandboxPreprocessor(recordingLog());
    expect(a.run('return $value * 3;', inputs(2))).toEqual([{ kind: 'value', value: 6 }]);
    a.dispose();
    expect(b.run('return $value * 4;', inputs(2))).toEqual([{ kind: 'value', value: 8 }]);
    expect(a.run('return $value;', inputs(2))).toEqual([{ kind: 'error', error: CODE_NOT_RUN }]);
    b.dispose();
    // A server started again at once (as the tests do, one after another) finds it still there.
    const c = await sandboxPreprocessor(recordingLog());
    expect(c.run('return $value * 5;', inputs(2))).toEqual([{ kind: 'value', value: 10 }]);
    c.dispose();
    expect(sharedSandboxCount()).toBe(made);
  });
});
