import { CODE_NOT_VALID, CODE_REASONS } from './code-rules-texts';
export { CODE_NOT_VALID, CODE_REASONS } from './code-rules-texts';

/**
 * The static check of spec 001 §5's rules for pre-processing code: "statements end with a
 * semicolon, variables start with a dollar sign, the code ends by returning a value".
 *
 * The code is tokenised (strings, template literals, comments and regular expressions are
 * recognised, so brackets or semicolons inside them do not count) and then checked:
 *
 * 1. Structure: every `(`, `[`, `{` and `${` is closed by its own partner, nothing is closed that
 *    the code did not open (code cannot close the function it runs in), nesting is at most
 *    {@link MAX_NESTING} deep, strings and comments are terminated, at most {@link MAX_CODE_CHARS}.
 * 2. Return: a `return` statement exists outside of nested functions. Falling off the end is
 *    still possible (`if ($x) { return 1; }`): that value is `undefined`, i.e. the point is dropped.
 * 3. Names: declared names start with `$` (`let`/`const`/`var` bindings, destructured ones too,
 *    function and class names, function and arrow parameters, `catch` parameters), and so does
 *    every plain name that is assigned to (`x = 1`, `x += 1`, `x++`). Reading globals such as
 *    `Math`, `Number` or `JSON` and properties (`$o.x = 1`) is fine.
 * 4. Semicolons: no statement relies on automatic semicolon insertion. A statement is missing its
 *    `;` when a token that can end an expression (a name, literal, `)`, `]`, postfix `++`/`--`,
 *    or the `}` of an object literal or function expression) is followed by `}` that closes a
 *    block, by the end of the code, or by a token on a later line that can only start a new
 *    statement (a name, keyword, literal, `{`, `!`, `~`, prefix `++`/`--`). A `return`, `break` or
 *    `continue` followed by a line break is refused too (JavaScript would return `undefined`).
 *    A line may end anywhere else, so expressions can span lines. `do … while (…)` without a
 *    final `;` is not detected (JavaScript's own exception).
 *
 * THE check, wherever code is judged: the data stream's schema (a save, in the app and on the
 * server), the server's code trial and ingest's sandbox. Two checks that disagreed let code be
 * saved that the trial refused, and the other way round.
 *
 * Syntax errors beyond this (e.g. `let $x = ;`) are left to the sandbox's compiler, which answers
 * the same text. Empty (or blank) code is not checked: it means "no pre-processing".
 */
/** The longest code accepted (the data stream model's limit). */
export const MAX_CODE_CHARS = 10_000;
/** Deepest bracket nesting accepted: deeper code could exhaust the compiler's stack. */
export const MAX_NESTING = 32;

/** Why the code breaks the rules (always {@link CODE_NOT_VALID}), or undefined when it does not. */
export function codeProblem(code: string): string | undefined {
  return codeReason(code) === undefined ? undefined : CODE_NOT_VALID;
}

/** Which rule the code breaks (one of CODE_REASONS), or undefined when it keeps them all. */
export function codeReason(code: string): string | undefined {
  if (code.trim() === '') return undefined;
  if (code.length > MAX_CODE_CHARS) return CODE_REASONS.tooLong;
  const tokens = tokenize(code);
  if (tokens === undefined) return CODE_REASONS.unreadable;
  const tree = structure(tokens);
  if (tree === undefined) return CODE_REASONS.unreadable;
  if (!hasReturn(tokens, tree)) return CODE_REASONS.noReturn;
  if (!namesAreValid(tokens, tree)) return CODE_REASONS.names;
  if (!semicolonsAreValid(tokens, tree)) return CODE_REASONS.semicolons;
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Tokens

type TokenKind = 'name' | 'keyword' | 'number' | 'string' | 'template' | 'regex' | 'punct';

interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  /** Line of the token's first and last character (templates and comments may span lines). */
  readonly line: number;
  readonly endLine: number;
}

const KEYWORDS = new Set([
  'await',
  'break',
  'case',
  'catch',
  'class',
  'const',
  'continue',
  'debugger',
  'default',
  'delete',
  'do',
  'else',
  'export',
  'extends',
  'false',
  'finally',
  'for',
  'function',
  'if',
  'import',
  'in',
  'instanceof',
  'let',
  'new',
  'null',
  'of',
  'return',
  'super',
  'switch',
  'this',
  'throw',
  'true',
  'try',
  'typeof',
  'var',
  'void',
  'while',
  'with',
  'yield',
]);

/** Keywords after which a `/` starts a regular expression (they expect an expression). */
const EXPRESSION_KEYWORDS = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
]);

const PUNCTUATORS = [
  '>>>=',
  '...',
  '===',
  '!==',
  '**=',
  '<<=',
  '>>=',
  '>>>',
  '&&=',
  '||=',
  '??=',
  '=>',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '??',
  '?.',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '**',
  '<<',
  '>>',
  ...'{}()[];,<>+-*/%&|^!~?:=.@#',
];

const NAME_START = /[A-Za-z_$\u00aa-\uffff]/;
const NAME_PART = /[\w$\u00aa-\uffff]/;
const NUMBER =
  /^(?:0[xXoObB][\da-fA-F_]+n?|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?n?)/;

/** The code's tokens without comments, or undefined when it cannot be tokenised. */
function tokenize(code: string): Token[] | undefined {
  const tokens: Token[] = [];
  /** Open template literals: the brace depth (within this template's `${`) to resume at. */
  const templates: number[] = [];
  let braces = 0;
  let line = 1;
  let i = 0;
  const push = (kind: TokenKind, text: string, startLine: number) =>
    tokens.push({ kind, text, line: startLine, endLine: line });

  /** Scans a template from just after its '`' or '}'; false when unterminated. */
  const templatePart = (): boolean => {
    const startLine = line;
    let text = '';
    while (i < code.length) {
      const c = code[i] ?? '';
      if (c === '\\') {
        text += code.slice(i, i + 2);
        if (code[i + 1] === '\n') line++;
        i += 2;
        continue;
      }
      if (c === '`') {
        i++;
        push('template', text, startLine);
        return true;
      }
      if (c === '$' && code[i + 1] === '{') {
        i += 2;
        push('template', text, startLine);
        tokens.push({ kind: 'punct', text: '${', line, endLine: line });
        templates.push(braces);
        braces = 0;
        return true;
      }
      if (c === '\n') line++;
      text += c;
      i++;
    }
    return false;
  };

  while (i < code.length) {
    const c = code[i] ?? '';
    const next = code[i + 1] ?? '';
    if (c === '\n') {
      line++;
      i++;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '/' && next === '/') {
      while (i < code.length && code[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && next === '*') {
      const end = code.indexOf('*/', i + 2);
      if (end < 0) return undefined;
      line += countLines(code.slice(i, end));
      i = end + 2;
      continue;
    }
    const startLine = line;
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < code.length && code[j] !== c) {
        if (code[j] === '\n') return undefined;
        if (code[j] === '\\') {
          if (code[j + 1] === '\n') line++;
          j++;
        }
        j++;
      }
      if (j >= code.length) return undefined;
      push('string', code.slice(i, j + 1), startLine);
      i = j + 1;
      continue;
    }
    if (c === '`') {
      i++;
      if (!templatePart()) return undefined;
      continue;
    }
    if (c === '}' && templates.length > 0 && braces === 0) {
      tokens.push({ kind: 'punct', text: '}', line, endLine: line });
      braces = templates.pop() ?? 0;
      i++;
      if (!templatePart()) return undefined;
      continue;
    }
    if (c === '/' && regexAllowed(tokens.at(-1))) {
      let j = i + 1;
      let inClass = false;
      while (j < code.length) {
        const d = code[j];
        if (d === '\n') return undefined;
        if (d === '\\') j++;
        else if (d === '[') inClass = true;
        else if (d === ']') inClass = false;
        else if (d === '/' && !inClass) break;
        j++;
      }
      if (j >= code.length) return undefined;
      j++;
      while (j < code.length && NAME_PART.test(code[j] ?? '')) j++;
      push('regex', code.slice(i, j), startLine);
      i = j;
      continue;
    }
    const number =
      /\d/.test(c) || (c === '.' && /\d/.test(next)) ? NUMBER.exec(code.slice(i)) : null;
    if (number !== null) {
      push('number', number[0], startLine);
      i += number[0].length;
      continue;
    }
    if (NAME_START.test(c)) {
      let j = i + 1;
      while (j < code.length && NAME_PART.test(code[j] ?? '')) j++;
      const word = code.slice(i, j);
      // A keyword after `.` or `?.` is a property name.
      const previous = tokens.at(-1);
      const isProperty = previous?.text === '.' || previous?.text === '?.';
      push(KEYWORDS.has(word) && !isProperty ? 'keyword' : 'name', word, startLine);
      i = j;
      continue;
    }
    const punct = PUNCTUATORS.find((p) => code.startsWith(p, i));
    if (punct === undefined) return undefined;
    if (punct === '{') braces++;
    if (punct === '}') braces--;
    push('punct', punct, startLine);
    i += punct.length;
  }
  return templates.length > 0 ? undefined : tokens;
}

function countLines(text: string): number {
  let n = 0;
  for (const c of text) if (c === '\n') n++;
  return n;
}

function regexAllowed(previous: Token | undefined): boolean {
  if (previous === undefined) return true;
  switch (previous.kind) {
    case 'name':
    case 'number':
    case 'string':
    case 'regex':
      return false;
    case 'template':
      // After a template's end (not after the text before a `${`).
      return false;
    case 'keyword':
      return EXPRESSION_KEYWORDS.has(previous.text);
    case 'punct':
      return ![')', ']', '}', '++', '--'].includes(previous.text);
    default: {
      const never: never = previous.kind;
      return never;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Brackets

/** What an opening `{` starts. */
type BraceKind =
  | 'block' // statement list: block, control body, switch body
  | 'function' // body of a function declaration, method or arrow/function expression
  | 'object' // object literal or destructuring pattern
  | 'class';

interface Structure {
  /** Index of the matching bracket, for every bracket token. */
  readonly partner: Map<number, number>;
  /** Kind of every `{` (by its index and by its closing `}` index). */
  readonly braceKind: Map<number, BraceKind>;
  /** Whether a function body/class brace's function is an expression (its `}` ends a value). */
  readonly braceIsValue: Set<number>;
  /** Index of the innermost open bracket containing each token (-1 at the top). */
  readonly parent: Int32Array;
}

const CONTROL_KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'catch', 'with']);
const OPENERS: Record<string, string> = { '(': ')', '[': ']', '{': '}', '${': '}' };

/** Bracket partners and brace kinds, or undefined when brackets do not match. */
function structure(tokens: readonly Token[]): Structure | undefined {
  const partner = new Map<number, number>();
  const braceKind = new Map<number, BraceKind>();
  const braceIsValue = new Set<number>();
  const parent = new Int32Array(tokens.length);
  const stack: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token === undefined) break;
    parent[i] = stack.at(-1) ?? -1;
    if (token.kind !== 'punct') continue;
    if (token.text in OPENERS) {
      stack.push(i);
      if (stack.length > MAX_NESTING) return undefined;
      if (token.text === '{') {
        const { kind, isValue } = classifyBrace(tokens, i, partner, braceKind, stack.at(-2));
        braceKind.set(i, kind);
        if (isValue) braceIsValue.add(i);
      }
      continue;
    }
    if (token.text === ')' || token.text === ']' || token.text === '}') {
      const open = stack.pop();
      if (open === undefined) return undefined;
      const opener = tokens[open]?.text ?? '';
      if (OPENERS[opener] !== token.text) return undefined;
      partner.set(open, i);
      partner.set(i, open);
      const kind = braceKind.get(open);
      if (kind !== undefined) braceKind.set(i, kind);
      if (braceIsValue.has(open)) braceIsValue.add(i);
    }
  }
  return stack.length === 0 ? { partner, braceKind, braceIsValue, parent } : undefined;
}

function classifyBrace(
  tokens: readonly Token[],
  index: number,
  partner: ReadonlyMap<number, number>,
  braceKind: ReadonlyMap<number, BraceKind>,
  enclosing: number | undefined,
): { kind: BraceKind; isValue: boolean } {
  const previous = tokens[index - 1];
  if (previous === undefined) return { kind: 'block', isValue: false };
  const text = previous.text;
  if (previous.kind === 'punct') {
    if (text === '=>') return { kind: 'function', isValue: true };
    if (text === ')') {
      const open = partner.get(index - 1) ?? -1;
      const before = tokens[open - 1];
      if (before?.kind === 'keyword' && CONTROL_KEYWORDS.has(before.text)) {
        return { kind: 'block', isValue: false };
      }
      // `function name(…) {`, `function (…) {` or a method `name(…) {`.
      const fn = functionKeywordBefore(tokens, open);
      if (fn !== undefined)
        return { kind: 'function', isValue: !atStatementStart(tokens, fn, partner, braceKind) };
      return { kind: 'function', isValue: false };
    }
    if (text === ';' || text === '{' || text === '}') {
      if (text === '{' && braceKind.get(index - 1) === 'object')
        return { kind: 'object', isValue: true };
      return { kind: 'block', isValue: false };
    }
    if (text === ':') {
      const container = enclosing === undefined ? undefined : tokens[enclosing];
      const inObject = container?.text === '{' && braceKind.get(enclosing ?? -1) === 'object';
      // `case 1: {` and labels start blocks; `key: {` in an object literal is a value.
      return inObject || isTernaryColon(tokens, index - 1)
        ? { kind: 'object', isValue: true }
        : { kind: 'block', isValue: false };
    }
    return { kind: 'object', isValue: true };
  }
  if (previous.kind === 'keyword') {
    if (['else', 'do', 'try', 'finally'].includes(text)) return { kind: 'block', isValue: false };
    // An object literal, or a destructuring pattern after `let`/`const`/`var`.
    if (EXPRESSION_KEYWORDS.has(text) || ['let', 'const', 'var'].includes(text)) {
      return { kind: 'object', isValue: true };
    }
  }
  // `class $A {`, `class $A extends $B {`
  const cls = classKeywordBefore(tokens, index);
  if (cls !== undefined) {
    return { kind: 'class', isValue: !atStatementStart(tokens, cls, partner, braceKind) };
  }
  return { kind: 'block', isValue: false };
}

function functionKeywordBefore(tokens: readonly Token[], open: number): number | undefined {
  const before = tokens[open - 1];
  if (before?.kind === 'keyword' && before.text === 'function') return open - 1;
  if (before?.text === '*' && tokens[open - 2]?.text === 'function') return open - 2;
  if (before?.kind === 'name') {
    const two = tokens[open - 2];
    if (two?.text === 'function') return open - 2;
    if (two?.text === '*' && tokens[open - 3]?.text === 'function') return open - 3;
  }
  return undefined;
}

function classKeywordBefore(tokens: readonly Token[], brace: number): number | undefined {
  for (let i = brace - 1; i >= 0 && i >= brace - 6; i--) {
    const token = tokens[i];
    if (token?.kind === 'keyword' && token.text === 'class') return i;
    if (token?.kind === 'punct') return undefined;
  }
  return undefined;
}

function isTernaryColon(tokens: readonly Token[], colon: number): boolean {
  // A `?` earlier at the same bracket level without a `:` in between.
  let depth = 0;
  for (let i = colon - 1; i >= 0; i--) {
    const t = tokens[i];
    if (t === undefined || t.kind !== 'punct') continue;
    if ([')', ']', '}'].includes(t.text)) depth++;
    else if (['(', '[', '{', '${'].includes(t.text)) {
      if (depth === 0) return false;
      depth--;
    } else if (depth === 0 && (t.text === ';' || t.text === ':')) return false;
    else if (depth === 0 && t.text === '?') return true;
  }
  return false;
}

/** Whether the token at `index` begins a statement (so a `function`/`class` there declares). */
function atStatementStart(
  tokens: readonly Token[],
  index: number,
  partner: ReadonlyMap<number, number>,
  braceKind: ReadonlyMap<number, BraceKind>,
): boolean {
  const previous = tokens[index - 1];
  if (previous === undefined) return true;
  if (previous.kind === 'keyword') return ['else', 'do'].includes(previous.text);
  if (previous.kind !== 'punct') return false;
  if (previous.text === ';') return true;
  if (previous.text === '{' || previous.text === '}') {
    const kind = braceKind.get(index - 1);
    return kind === 'block' || kind === 'function' || kind === 'class';
  }
  if (previous.text === ')') {
    const open = partner.get(index - 1) ?? -1;
    const before = tokens[open - 1];
    return before?.kind === 'keyword' && CONTROL_KEYWORDS.has(before.text);
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Rule 2: a return statement in the code's own function

function hasReturn(tokens: readonly Token[], tree: Structure): boolean {
  return tokens.some((t, i) => {
    if (t.kind !== 'keyword' || t.text !== 'return') return false;
    for (let open = tree.parent[i] ?? -1; open >= 0; open = tree.parent[open] ?? -1) {
      if (tree.braceKind.get(open) === 'function') return false;
    }
    return true;
  });
}

// ---------------------------------------------------------------------------------------------
// Rule 3: names

const ASSIGNMENTS = new Set([
  '=',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '**=',
  '<<=',
  '>>=',
  '>>>=',
  '&=',
  '|=',
  '^=',
  '&&=',
  '||=',
  '??=',
]);

const isDollarName = (t: Token | undefined) => t?.kind === 'name' && t.text.startsWith('$');

function namesAreValid(tokens: readonly Token[], tree: Structure): boolean {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t === undefined) break;
    const next = tokens[i + 1];
    const previous = tokens[i - 1];
    if (t.kind === 'keyword') {
      if (t.text === 'let' || t.text === 'const' || t.text === 'var') {
        if (!bindingListValid(tokens, tree, i + 1, endOfDeclaration(tokens, tree, i + 1)))
          return false;
      } else if (t.text === 'function' || t.text === 'class') {
        let j = i + 1;
        if (tokens[j]?.text === '*') j++;
        if (tokens[j]?.kind === 'name' && !isDollarName(tokens[j])) return false;
        if (t.text === 'function') {
          if (tokens[j]?.kind === 'name') j++;
          const close = tokens[j]?.text === '(' ? tree.partner.get(j) : undefined;
          if (close !== undefined && !bindingListValid(tokens, tree, j + 1, close)) return false;
        }
      } else if (t.text === 'catch' && next?.text === '(') {
        const close = tree.partner.get(i + 1) ?? i + 1;
        if (!bindingListValid(tokens, tree, i + 2, close)) return false;
      }
      continue;
    }
    if (t.kind === 'punct' && t.text === '=>') {
      if (previous?.kind === 'name' && !isDollarName(previous)) return false;
      if (previous?.text === ')') {
        const open = tree.partner.get(i - 1) ?? i - 1;
        if (!bindingListValid(tokens, tree, open + 1, i - 1)) return false;
      }
      continue;
    }
    if (t.kind !== 'name' || t.text.startsWith('$')) continue;
    if (previous?.text === '.' || previous?.text === '?.') continue;
    const assigned =
      (next !== undefined && next.kind === 'punct' && ASSIGNMENTS.has(next.text)) ||
      (next?.text === '++' && next.line === t.endLine) ||
      (next?.text === '--' && next.line === t.endLine) ||
      previous?.text === '++' ||
      previous?.text === '--';
    // A plain name that is assigned to is a variable (declared or not): it needs the `$`.
    if (assigned) return false;
  }
  return true;
}

/** Where a declaration's binding list ends: `;`, `in`/`of`, or the enclosing bracket's end. */
function endOfDeclaration(tokens: readonly Token[], tree: Structure, start: number): number {
  for (let i = start; i < tokens.length; i++) {
    const t = tokens[i];
    if (t === undefined) break;
    const close = tree.partner.get(i);
    if (close !== undefined && close > i) {
      i = close;
      continue;
    }
    if (t.kind === 'punct' && (t.text === ';' || [')', ']', '}'].includes(t.text))) return i;
    if (t.kind === 'keyword' && (t.text === 'in' || t.text === 'of')) return i;
    // A new line starting a statement ends a declaration without `;` (rule 4 refuses that).
    const previous = tokens[i - 1];
    if (
      previous !== undefined &&
      t.line > previous.endLine &&
      startsStatement(t) &&
      endsValue(tokens, tree, i - 1)
    )
      return i;
  }
  return tokens.length;
}

/**
 * Whether the bindings in tokens [start, end) — `a, b = 1, [c, d], {e, f: g}` — all start with
 * `$`. Initialisers (after `=` at the list's level) are skipped.
 */
function bindingListValid(
  tokens: readonly Token[],
  tree: Structure,
  start: number,
  end: number,
): boolean {
  let expectBinding = true;
  for (let i = start; i < end; i++) {
    const t = tokens[i];
    if (t === undefined) break;
    if (expectBinding) {
      if (t.text === '...') continue;
      if (t.kind === 'name') {
        if (!isDollarName(t)) return false;
        expectBinding = false;
        continue;
      }
      if (t.text === '[' || t.text === '{') {
        const close = tree.partner.get(i) ?? i;
        if (!patternValid(tokens, tree, i, close)) return false;
        i = close;
        expectBinding = false;
        continue;
      }
      return false;
    }
    if (t.text === ',') {
      expectBinding = true;
      continue;
    }
    if (t.text === '=') {
      // Skip the initialiser up to the next `,` at this level.
      let j = i + 1;
      for (; j < end; j++) {
        const close = tree.partner.get(j);
        if (close !== undefined && close > j) {
          j = close;
          continue;
        }
        if (tokens[j]?.text === ',') break;
      }
      i = j - 1;
      continue;
    }
    return false;
  }
  return true;
}

/** Whether a destructuring pattern `[…]`/`{…}` (open..close) binds only `$` names. */
function patternValid(
  tokens: readonly Token[],
  tree: Structure,
  open: number,
  close: number,
): boolean {
  if (tokens[open]?.text === '[') return bindingListValid(tokens, tree, open + 1, close);
  // Object pattern: `key: binding`, `$short`, `[computed]: binding`, `...$rest`, `= default`.
  let i = open + 1;
  while (i < close) {
    let end = i;
    for (; end < close; end++) {
      const c = tree.partner.get(end);
      if (c !== undefined && c > end) {
        end = c;
        continue;
      }
      if (tokens[end]?.text === ',') break;
    }
    let colon = -1;
    for (let j = i; j < end; j++) {
      const c = tree.partner.get(j);
      if (c !== undefined && c > j) {
        j = c;
        continue;
      }
      if (tokens[j]?.text === ':') {
        colon = j;
        break;
      }
    }
    const from = colon >= 0 ? colon + 1 : i;
    if (end > from && !bindingListValid(tokens, tree, from, end)) return false;
    i = end + 1;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Rule 4: semicolons

/** Whether token `index` can end an expression statement (so a `;` may have to follow it). */
function endsValue(tokens: readonly Token[], tree: Structure, index: number): boolean {
  const t = tokens[index];
  if (t === undefined) return false;
  switch (t.kind) {
    case 'name':
    case 'number':
    case 'string':
    case 'regex':
      return true;
    case 'template':
      // The text after the last `${…}` (or a whole template); not the part before a `${`.
      return tokens[index + 1]?.text !== '${';
    case 'keyword':
      return [
        'this',
        'null',
        'true',
        'false',
        'super',
        'return',
        'break',
        'continue',
        'debugger',
      ].includes(t.text);
    case 'punct': {
      if (t.text === ']') return true;
      if (t.text === '++' || t.text === '--') {
        const previous = tokens[index - 1];
        return (
          previous !== undefined &&
          previous.endLine === t.line &&
          (previous.kind === 'name' || previous.text === ')' || previous.text === ']')
        );
      }
      if (t.text === ')') {
        const open = tree.partner.get(index) ?? -1;
        const before = tokens[open - 1];
        if (before?.kind === 'keyword' && CONTROL_KEYWORDS.has(before.text)) return false;
        if (functionKeywordBefore(tokens, open) !== undefined) return false;
        return tokens[index + 1]?.text !== '=>';
      }
      if (t.text === '}') {
        // The `}` closing a template's `${` is inside the template.
        if (tokens[tree.partner.get(index) ?? -1]?.text === '${') return false;
        return tree.braceIsValue.has(index);
      }
      return false;
    }
    default: {
      const never: never = t.kind;
      return never;
    }
  }
}

/** Tokens that cannot continue an expression from the line before (ASI applies before them). */
function startsStatement(t: Token): boolean {
  if (t.kind === 'name' || t.kind === 'number' || t.kind === 'string') return true;
  if (t.kind === 'keyword') return !['in', 'instanceof', 'of'].includes(t.text);
  return t.kind === 'punct' && ['{', '}', '++', '--', '!', '~'].includes(t.text);
}

function semicolonsAreValid(tokens: readonly Token[], tree: Structure): boolean {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t === undefined) break;
    const next = tokens[i + 1];
    const restricted = t.kind === 'keyword' && ['return', 'break', 'continue'].includes(t.text);
    if (next === undefined) {
      // The code ends with `;` or the `}` of a block, declaration or statement.
      return (
        (t.kind === 'punct' && t.text === ';') ||
        (t.kind === 'punct' && t.text === '}' && !endsValue(tokens, tree, i))
      );
    }
    if (restricted && next.line > t.endLine && next.text !== ';') return false;
    if (!endsValue(tokens, tree, i)) continue;
    if (next.kind === 'punct' && next.text === '}') {
      const kind = tree.braceKind.get(i + 1);
      if (kind === 'block' || kind === 'function') return false;
      continue;
    }
    if (next.line > t.endLine && startsStatement(next)) return false;
  }
  return true;
}
