import { describe, expect, it } from 'vitest';
import { CODE_NOT_VALID, codeProblem, MAX_CODE_CHARS, MAX_NESTING } from './code-rules';

const accepted: readonly string[] = [
  'let $x = $value * 2; if ($x > 100) { return null; } return $x;',
  'return $value * 2;',
  'let $f = $value * 9 / 5 + 32;\nreturn $f;',
  'if ($previous === null) {\n  return $value;\n}\nreturn ($value + $previous) / 2;',
  'let $o = {\n  a: 1,\n  b: [1, 2]\n};\nreturn $o.a + $value;',
  // An expression may span lines.
  'let $x = $value\n  * 2\n  + 1;\nreturn $x\n  .toFixed(2);',
  'const $arr = [1, 2, 3];\nlet $s = 0;\n$arr.forEach(($v) => {\n  $s += $v;\n});\nreturn $s + $value;',
  'function $double($a) {\n  return $a * 2;\n}\nreturn $double($value);',
  'let $t = `v=${$value}`; // a comment ; } with brackets\nreturn $t;',
  '/* a comment\n   over lines } */\nreturn $value;',
  'if ($value > 1) {\n  return 1;\n} else {\n  return 0;\n}',
  'for (let $i = 0; $i < 3; $i++) {\n  $value += $i;\n}\nreturn $value;',
  'let [$a, $b] = [1, 2];\nlet { x: $c, $d = 4 } = { x: 3 };\nreturn $a + $b + $c + $d;',
  'try {\n  return JSON.parse($value).x;\n} catch ($e) {\n  return null;\n}',
  'let $s = "a } b;"; let $r = /[}]+/g; return $s.replace($r, "");',
  'switch ($value) {\n  case 1:\n    return "one";\n  default:\n    return "other";\n}',
  'let $f = function ($a) {\n  return $a;\n};\nreturn $f($value);',
  'return $value > 10 ? Math.round($value) : null;',
  'let $d = new Date($ts);\nreturn $d.getHours() < 6 ? null : $value;',
  'return [1, 2].map(($x) => $x * $value)[1];',
  'return;',
];

const refused: readonly string[] = [
  // No `;`, no `$`, no return.
  'x = 1',
  'x = 1\nreturn x',
  'let y = 2; return y;',
  'let $x = 1;',
  '// only a comment',
  // Missing semicolons.
  'return $value',
  'let $x = 1\nreturn $x;',
  'if ($value) { return 1 }',
  'let $o = { a: 1 }\nreturn $o.a;',
  'let $f = () => {\n  return 1;\n}\nreturn $f();',
  'return\n$value;',
  // Names without `$`.
  'for (let i = 0; i < 3; i++) { $value += i; } return $value;',
  'function f($a) { return $a; } return f($value);',
  'function $f(a) { return a; } return $f($value);',
  'return [1, 2].map(x => x * 2)[0];',
  'return [1, 2].map((x) => x * 2)[0];',
  'try { return 1; } catch (e) { return 2; }',
  'counter++; return $value;',
  'total += $value; return $value;',
  'let [$a, b] = [1, 2]; return $a;',
  'let { x: b } = { x: 1 }; return b;',
  // A return only in a nested function does not return from the code.
  'let $f = function () { return 1; };',
  // Structure.
  '} foo(); function x() {',
  'return $value; }',
  'return ($value;',
  'return [$value);',
  'let $s = "abc;\nreturn $s;',
  'let $x = `${$value`;',
  '/* unterminated\nreturn $value;',
  `return ${'('.repeat(MAX_NESTING + 1)}1${')'.repeat(MAX_NESTING + 1)};`,
  `return "${'x'.repeat(MAX_CODE_CHARS)}";`,
];

describe('codeProblem', () => {
  it.each(accepted)('accepts %j', (code) => {
    expect(codeProblem(code)).toBeUndefined();
  });

  it.each(refused)('refuses %j', (code) => {
    expect(codeProblem(code)).toBe(CODE_NOT_VALID);
  });

  it("answers the spec's text", () => {
    expect(CODE_NOT_VALID).toBe('This code is not valid');
  });

  it('leaves blank code alone (no pre-processing)', () => {
    expect(codeProblem('')).toBeUndefined();
    expect(codeProblem('  \n ')).toBeUndefined();
  });

  it('accepts nesting up to its limit', () => {
    const deep = `return ${'('.repeat(MAX_NESTING)}1${')'.repeat(MAX_NESTING)};`;
    expect(codeProblem(deep)).toBeUndefined();
  });
});
