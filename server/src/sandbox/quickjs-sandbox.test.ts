import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PointValue } from '@plant/shared-schema';
import {
  CODE_FAILED,
  CODE_NO_VALID_VALUE,
  CODE_NOT_VALID,
  CODE_TEXT_TOO_LONG,
  CODE_TOO_DEEP,
  CODE_TOO_MUCH_MEMORY,
  CODE_TOO_SLOW,
  createSandbox,
  timeLimitFor,
  type Sandbox,
  type SandboxInput,
} from './quickjs-sandbox';

const TS = 1_700_000_000_000;
const input = (value: PointValue, previous: PointValue | null = null): SandboxInput => ({
  value,
  ts: TS,
  previous,
});

let sandbox: Sandbox;
const restarts: string[] = [];

beforeAll(async () => {
  // A limit of its own that a few values never reach however busy the machine (at the default
  // 50 ms, `$value * 2` over three values once ran out of it in a full run at a load of 17); the
  // endless loops below still end in it.
  sandbox = await createSandbox({
    timeLimitMs: 400,
    onRestart: (reason) => restarts.push(reason),
  });
});
afterAll(() => sandbox.dispose());

/** The value a code returns for one input (or its outcome when that is not a value). */
function one(code: string, value: PointValue = 1): unknown {
  const [outcome] = sandbox.run(code, [input(value)]);
  return outcome?.kind === 'value' ? outcome.value : outcome;
}

/** Normal code still gives right answers (after something hostile). */
function expectServing(): void {
  expect(sandbox.run('return $value * 2;', [input(1), input(21)])).toEqual([
    { kind: 'value', value: 2 },
    { kind: 'value', value: 42 },
  ]);
}

describe('results', () => {
  it('transforms each value, in order', () => {
    expect(sandbox.run('return $value * 2;', [input(1), input(2.5), input(-3)])).toEqual([
      { kind: 'value', value: 2 },
      { kind: 'value', value: 5 },
      { kind: 'value', value: -6 },
    ]);
  });

  it('passes $previous and $ts', () => {
    const code = 'return $previous === null ? -1 : $value - $previous;';
    expect(sandbox.run(code, [input(10), input(15, 10)])).toEqual([
      { kind: 'value', value: -1 },
      { kind: 'value', value: 5 },
    ]);
    expect(one('return $ts;')).toBe(TS);
    expect(one('return new Date($ts).getUTCFullYear();')).toBe(2023);
  });

  it('drops the point on null or undefined', () => {
    expect(
      sandbox.run('if ($value > 100) { return null; } return $value;', [input(5), input(500)]),
    ).toEqual([{ kind: 'value', value: 5 }, { kind: 'dropped' }]);
    expect(one('return undefined;')).toEqual({ kind: 'dropped' });
    expect(one('if ($value > 1) { return 1; }', 0)).toEqual({ kind: 'dropped' });
  });

  it('handles texts and booleans', () => {
    expect(one('return $value.toUpperCase() + "!";', 'on')).toBe('ON!');
    expect(one('return typeof $value;', true)).toBe('boolean');
    expect(one('return $value > 3;', 5)).toBe(true);
    expect(one('return !$value;', true)).toBe(false);
    expect(one('return "é ✓ 😀";')).toBe('é ✓ 😀');
  });

  it('refuses values that are no point value', () => {
    for (const code of [
      'return {};',
      'return [1];',
      'return NaN;',
      'return 1 / 0;',
      'return () => 1;',
      'return Symbol("x");',
      'return 10n;',
      'return Promise.resolve(1);',
    ]) {
      expect(one(code), code).toEqual({ kind: 'error', error: CODE_NO_VALID_VALUE });
    }
    expect(one('return "x".repeat(1001);')).toEqual({ kind: 'error', error: CODE_TEXT_TOO_LONG });
    expect(one('return "x".repeat(1000);')).toBe('x'.repeat(1000));
  });

  it("answers the code's own errors in short, per value", () => {
    expect(
      sandbox.run('if ($value > 1) { throw new Error("too big"); } return $value;', [
        input(1),
        input(2),
        input(0),
      ]),
    ).toEqual([
      { kind: 'value', value: 1 },
      { kind: 'error', error: `${CODE_FAILED}Error: too big` },
      { kind: 'value', value: 0 },
    ]);
    expect(one('return $nothing + 1;')).toEqual({
      kind: 'error',
      error: `${CODE_FAILED}ReferenceError: '$nothing' is not defined`,
    });
    const thrown = one('throw { name: "X", message: "a\\nb".repeat(500) };');
    expect(thrown).toMatchObject({ kind: 'error' });
    const text = (thrown as { error: string }).error;
    expect(text.startsWith(`${CODE_FAILED}X: a b`)).toBe(true);
    expect(text.length).toBeLessThanOrEqual(CODE_FAILED.length + 200);
    expect(text).not.toMatch(/[\n\r]|at <|\.js:/);
    expect(one('throw 42;')).toEqual({ kind: 'error', error: `${CODE_FAILED}Error: 42` });
  });

  it('refuses code that does not compile, for every value', () => {
    expect(sandbox.run('return $value +;', [input(1), input(2)])).toEqual([
      { kind: 'error', error: CODE_NOT_VALID },
      { kind: 'error', error: CODE_NOT_VALID },
    ]);
    // Strict mode: assigning to an undeclared name fails.
    expect(one('x = 1; return x;')).toEqual({
      kind: 'error',
      error: `${CODE_FAILED}ReferenceError: 'x' is not defined`,
    });
  });

  it('runs a full batch of 5,000 values', () => {
    const inputs = Array.from({ length: 5_000 }, (_, i) => input(i, i === 0 ? null : i - 1));
    const outcomes = sandbox.run('return $value + $previous;', inputs);
    expect(outcomes).toHaveLength(5_000);
    expect(outcomes[0]).toEqual({ kind: 'value', value: 0 });
    expect(outcomes[4_999]).toEqual({ kind: 'value', value: 4_999 + 4_998 });
  });

  it('needed no new thread (a leaked QuickJS handle would abort its runtime)', () => {
    expect(restarts).toEqual([]);
  });

  it('gives a call more time for more values, up to a cap', () => {
    expect(timeLimitFor(1)).toBeCloseTo(50.05);
    expect(timeLimitFor(5_000)).toBe(300);
    expect(timeLimitFor(100_000)).toBe(500);
    expect(timeLimitFor(10, { timeLimitMs: 5, timeLimitPerValueMs: 1 })).toBe(15);
  });
});

describe('limits', () => {
  it('stops an endless loop: every value of the call is refused', () => {
    expect(sandbox.run('while (true) {}', [input(1), input(2), input(3)])).toEqual([
      { kind: 'error', error: CODE_TOO_SLOW },
      { kind: 'error', error: CODE_TOO_SLOW },
      { kind: 'error', error: CODE_TOO_SLOW },
    ]);
    expect(sandbox.run('try { while (true) {} } catch ($e) { return 1; }', [input(1)])).toEqual([
      { kind: 'error', error: CODE_TOO_SLOW },
    ]);
    expectServing();
  });

  it('stops a loop of long built-in calls by killing its thread', () => {
    // QuickJS looks at the clock only every so many steps: this would run for minutes.
    const before = restarts.length;
    const code = 'let $s = "x".repeat(1e7); while (true) { $s.indexOf("y"); }';
    expect(sandbox.run(code, [input(1), input(2)])).toEqual([
      { kind: 'error', error: CODE_TOO_SLOW },
      { kind: 'error', error: CODE_TOO_SLOW },
    ]);
    expect(restarts.slice(before)).toEqual(['timeout']);
    expectServing();
  });

  it('refuses a huge allocation, and the process memory stays bounded', () => {
    const rss = process.memoryUsage().rss;
    const code = 'let $a = []; while (true) { $a.push(new Array(100000).fill(1)); }';
    const [outcome] = sandbox.run(code, [input(1)]);
    expect([CODE_TOO_MUCH_MEMORY, CODE_TOO_SLOW]).toContain(
      outcome?.kind === 'error' ? outcome.error : outcome,
    );
    expect(one('return "x".repeat(2 ** 28).length;')).toEqual({
      kind: 'error',
      error: CODE_TOO_MUCH_MEMORY,
    });
    expect(
      one('let $a = []; while (true) { $a.push("y".repeat(100000) + $a.length); }'),
    ).toMatchObject({ kind: 'error' });
    expect(process.memoryUsage().rss - rss).toBeLessThan(256 * 1024 * 1024);
    expectServing();
  });

  it('refuses deep recursion', () => {
    expect(one('function $f($n) { return $f($n + 1) + 1; } return $f(0);')).toEqual({
      kind: 'error',
      error: CODE_TOO_DEEP,
    });
    // Recursion that is caught inside the code is the code's business.
    expect(
      one('function $f() { return $f(); } try { return $f(); } catch ($e) { return "caught"; }'),
    ).toBe('caught');
    // Nesting that exhausts the thread's own stack (not QuickJS's count) is refused too.
    const parse = one('return eval("(".repeat(100000) + "1" + ")".repeat(100000));');
    expect([CODE_TOO_DEEP, CODE_TOO_SLOW, `${CODE_FAILED}SyntaxError: stack overflow`]).toContain(
      (parse as { error?: string }).error,
    );
    const json = one(
      'let $a = []; for (let $i = 0; $i < 20000; $i++) { $a = [$a]; } ' +
        'return JSON.stringify($a).length;',
    );
    expect([CODE_TOO_DEEP, CODE_TOO_SLOW]).toContain((json as { error?: string }).error);
    expectServing();
  });
});

describe('isolation', () => {
  it('gives the code no way to the host', () => {
    expect(one('return typeof process + "," + typeof require + "," + typeof module;')).toBe(
      'undefined,undefined,undefined',
    );
    expect(one('return globalThis.constructor.constructor("return typeof process")();')).toBe(
      'undefined',
    );
    expect(one('return (function () { return typeof this; })();')).toBe('undefined');
    const noConstructor = one('return this.constructor;');
    expect(noConstructor).toMatchObject({ kind: 'error' });
    expect(JSON.stringify(noConstructor)).toMatch(/"error":"The code failed: TypeError/);
    expect(one('return eval("typeof process + typeof require");')).toBe('undefinedundefined');
    expect(one('return Function("return typeof globalThis.process")();')).toBe('undefined');
    // No module loader: import() gives a promise that can never resolve to a host module.
    expect(one('return import("node:fs");')).toEqual({ kind: 'error', error: CODE_NO_VALID_VALUE });
    expect(one('return typeof Math.random() + typeof Date.now();')).toBe('numbernumber');
    // What the code does to its globals stays inside.
    expect(
      one('globalThis.process = 1; Object.prototype.$polluted = 1; return typeof process;'),
    ).toBe('number');
    expect(({} as Record<string, unknown>)['$polluted']).toBeUndefined();
    expect(typeof process.exit).toBe('function');
  });

  it("keeps one call's changes from the next", () => {
    expect(
      one(
        'Object.prototype.$x = 1; Array.prototype.map = null; globalThis.$n = 5; ' +
          'Math.round = () => 7; return 1;',
      ),
    ).toBe(1);
    expect(
      one('return [typeof ({}).$x, typeof [].map, typeof globalThis.$n, Math.round(1.2)].join();'),
    ).toBe('undefined,function,undefined,1');
  });

  it('refuses code that closes its function to run outside it', () => {
    const before = restarts.length;
    for (const code of [
      '} globalThis.$leak = 1; (function () {',
      '} globalThis.$leak = 1; function $x() {',
      '}); globalThis.$leak = 1; (function () {',
      '} Function.prototype.toString = () => "x"; globalThis.$leak = 1; (function () {',
      '}\nglobalThis.$leak = 1;\n//',
      'return 1; } + (globalThis.$leak = 1, function () {',
    ]) {
      expect(sandbox.run(code, [input(1), input(2)]), code).toEqual([
        { kind: 'error', error: CODE_NOT_VALID },
        { kind: 'error', error: CODE_NOT_VALID },
      ]);
    }
    expect(one('return typeof globalThis.$leak;')).toBe('undefined');
    expectServing();
    expect(restarts.slice(before)).toEqual([]);
  });
});
