/*
 * A form's computed field (issue 37 item 1): a formula over the form's other number fields, e.g.
 * `(end_hours - start_hours) * 60`. Parsed here, never by `eval` (the pages' CSP forbids it, and
 * a formula is a user's text): numbers, field ids, + - * /, parentheses, unary minus and the
 * functions below. The designer shows 'Formula not valid' for one that does not parse, names a
 * field that is not a number field of the form, or refers to itself through other formulas.
 */

export type FormulaNode =
  | { readonly kind: 'number'; readonly value: number }
  | { readonly kind: 'field'; readonly id: string }
  | { readonly kind: 'neg'; readonly arg: FormulaNode }
  | {
      readonly kind: 'op';
      readonly op: '+' | '-' | '*' | '/';
      readonly left: FormulaNode;
      readonly right: FormulaNode;
    }
  | { readonly kind: 'call'; readonly fn: FormulaFunction; readonly args: readonly FormulaNode[] };

/** The functions a formula may call, with how many arguments each takes. */
const FUNCTIONS = { abs: 1, round: 1, min: 2, max: 2 } as const;
export type FormulaFunction = keyof typeof FUNCTIONS;

/** The longest formula and its deepest nesting: a formula is a line, not a program. */
export const FORMULA_MAX_LENGTH = 500;
const MAX_DEPTH = 32;

type Token =
  | { readonly t: 'num'; readonly v: number }
  | { readonly t: 'id'; readonly v: string }
  | { readonly t: 'sym'; readonly v: string };

function tokenize(text: string): Token[] | null {
  const tokens: Token[] = [];
  const re = /\s*(?:(\d+(?:\.\d+)?(?:e[+-]?\d+)?)|([A-Za-z_][A-Za-z0-9_-]*)|([-+*/(),]))/y;
  let at = 0;
  while (at < text.length) {
    if (/^\s*$/.test(text.slice(at))) break;
    re.lastIndex = at;
    const m = re.exec(text);
    if (m === null) return null;
    at = re.lastIndex;
    if (m[1] !== undefined) tokens.push({ t: 'num', v: Number(m[1]) });
    else if (m[2] !== undefined) tokens.push({ t: 'id', v: m[2] });
    else if (m[3] !== undefined) tokens.push({ t: 'sym', v: m[3] });
  }
  return tokens;
}

/** The formula's tree, or null when it is not a formula. */
export function parseFormula(text: string): FormulaNode | null {
  if (text.length > FORMULA_MAX_LENGTH) return null;
  const tokens = tokenize(text);
  if (tokens === null || tokens.length === 0) return null;
  let i = 0;
  const peek = (): Token | undefined => tokens[i];
  const isSym = (v: string) => {
    const tok = peek();
    return tok?.t === 'sym' && tok.v === v;
  };
  const expr = (depth: number): FormulaNode | null => {
    if (depth > MAX_DEPTH) return null;
    let left = term(depth);
    while (left !== null && (isSym('+') || isSym('-'))) {
      const op = (tokens[i++] as Token).v as '+' | '-';
      const right = term(depth);
      left = right === null ? null : { kind: 'op', op, left, right };
    }
    return left;
  };
  const term = (depth: number): FormulaNode | null => {
    let left = factor(depth);
    while (left !== null && (isSym('*') || isSym('/'))) {
      const op = (tokens[i++] as Token).v as '*' | '/';
      const right = factor(depth);
      left = right === null ? null : { kind: 'op', op, left, right };
    }
    return left;
  };
  const factor = (depth: number): FormulaNode | null => {
    const tok = peek();
    if (tok === undefined || depth > MAX_DEPTH) return null;
    i += 1;
    if (tok.t === 'num') return Number.isFinite(tok.v) ? { kind: 'number', value: tok.v } : null;
    if (tok.t === 'sym' && tok.v === '-') {
      const arg = factor(depth + 1);
      return arg === null ? null : { kind: 'neg', arg };
    }
    if (tok.t === 'sym' && tok.v === '(') {
      const inner = expr(depth + 1);
      if (inner === null || !isSym(')')) return null;
      i += 1;
      return inner;
    }
    if (tok.t !== 'id') return null;
    if (!isSym('(')) return { kind: 'field', id: tok.v };
    if (!Object.hasOwn(FUNCTIONS, tok.v)) return null;
    const fn = tok.v as FormulaFunction;
    i += 1;
    const args: FormulaNode[] = [];
    for (;;) {
      const arg = expr(depth + 1);
      if (arg === null) return null;
      args.push(arg);
      if (isSym(',')) {
        i += 1;
        continue;
      }
      if (!isSym(')')) return null;
      i += 1;
      break;
    }
    return args.length === FUNCTIONS[fn] ? { kind: 'call', fn, args } : null;
  };
  const tree = expr(0);
  return tree !== null && i === tokens.length ? tree : null;
}

/** The field ids a formula reads. */
export function formulaFields(node: FormulaNode): string[] {
  switch (node.kind) {
    case 'number':
      return [];
    case 'field':
      return [node.id];
    case 'neg':
      return formulaFields(node.arg);
    case 'op':
      return [...formulaFields(node.left), ...formulaFields(node.right)];
    case 'call':
      return node.args.flatMap(formulaFields);
  }
}

/**
 * The formula's value with these field values; null when a field it reads has none, or the
 * result is not a finite number (a division by zero).
 */
export function evaluateFormula(
  node: FormulaNode,
  read: (fieldId: string) => number | null,
): number | null {
  const go = (n: FormulaNode): number | null => {
    switch (n.kind) {
      case 'number':
        return n.value;
      case 'field':
        return read(n.id);
      case 'neg': {
        const v = go(n.arg);
        return v === null ? null : -v;
      }
      case 'op': {
        const a = go(n.left);
        const b = go(n.right);
        if (a === null || b === null) return null;
        if (n.op === '+') return a + b;
        if (n.op === '-') return a - b;
        if (n.op === '*') return a * b;
        return a / b;
      }
      case 'call': {
        const values = n.args.map(go);
        if (values.some((v) => v === null)) return null;
        const [a = 0, b = 0] = values as number[];
        if (n.fn === 'abs') return Math.abs(a);
        if (n.fn === 'round') return Math.round(a);
        if (n.fn === 'min') return Math.min(a, b);
        return Math.max(a, b);
      }
    }
  };
  const result = go(node);
  return result !== null && Number.isFinite(result) ? result : null;
}
