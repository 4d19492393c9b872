import type { Context } from 'hono';
import type { z } from 'zod';
import { NUL_TEXT_MESSAGE } from '@plant/shared-schema';
import { wellFormedText } from '../lib/well-formed';
import { invalidInput } from '../services/domain-error';
import { MalformedBody, validationFailure } from './errors';

/**
 * Reads the body as JSON (or, where a route allows it, as an HTML form, as OAuth clients send) and
 * parses it with the route's shared schema. Malformed input: 400; input that fails the schema: 422.
 */
export async function validBody<S extends z.ZodType>(
  c: Context,
  schema: S,
  options: { allowForm?: boolean } = {},
): Promise<z.output<S>> {
  return parse(schema, await readBody(c, options));
}

/** The body unparsed: JSON, or (where allowed) an HTML form's fields. */
export async function readBody(
  c: Context,
  options: { allowForm?: boolean } = {},
): Promise<unknown> {
  const type = c.req.header('content-type') ?? '';
  if (options.allowForm === true && type.startsWith('application/x-www-form-urlencoded')) {
    return withoutNul(Object.fromEntries(new URLSearchParams(await c.req.text())));
  }
  return readJson(c);
}

/**
 * The body as JSON (an empty body reads as `{}`); malformed JSON: 400; a text holding U+0000 (a
 * value or a key, at any depth): 422 on its path. Postgres refuses NUL in text and JSON, so such
 * a text failed deep in a write as a 500; every JSON body comes through here, so it is refused
 * once, for every route, before any schema or service sees it.
 */
export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    throw new MalformedBody();
  }
  // A NUL can only be written as an escape in JSON text: most bodies are not walked at all.
  const at = /\\u0000/i.test(text) ? nulPath(body) : undefined;
  if (at !== undefined) throw invalidInput({ [at === '' ? 'body' : at]: [NUL_TEXT_MESSAGE] });
  // So can a surrogate (a well-formed UTF-8 body carries none as a character).
  return /\\ud[89a-f]/i.test(text) ? wellFormed(body) : body;
}

/**
 * The body with every lone surrogate (a text's and a key's, at any depth) made U+FFFD, as UTF-8
 * encoding makes it in any text column. JSON.stringify writes one as a `\ud800` escape, which
 * Postgres's JSON refuses: a model holding one in its attributes made every query of the account
 * that reads attributes as JSON fail (a 500 on other writes, found by the hostile sweep).
 * Iterative, in place (bodies nest deep).
 */
function wellFormed(value: unknown): unknown {
  if (typeof value === 'string') return wellFormedText(value);
  const stack: unknown[] = [value];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (item === null || typeof item !== 'object') continue;
    const node = item as Record<string, unknown>;
    for (const [key, child] of Object.entries(node)) {
      const fixedKey = wellFormedText(key);
      const fixedChild = typeof child === 'string' ? wellFormedText(child) : child;
      // A fixed key holds U+FFFD: never `__proto__`, so a plain assignment is safe.
      if (fixedKey !== key) delete node[key];
      if (fixedKey !== key || fixedChild !== child) node[fixedKey] = fixedChild;
      if (fixedChild !== null && typeof fixedChild === 'object') stack.push(fixedChild);
    }
  }
  return value;
}

/** The path (`a.0.b`) of the first text holding U+0000, if any; iterative (bodies nest deep). */
function nulPath(value: unknown): string | undefined {
  const stack: [unknown, string][] = [[value, '']];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [item, path] = next;
    if (typeof item === 'string') {
      if (item.includes('\0')) return path;
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        const childPath = path === '' ? key : `${path}.${key}`;
        if (key.includes('\0')) return childPath;
        stack.push([child, childPath]);
      }
    }
  }
  return undefined;
}

/**
 * Form fields, query and path parameters as `readJson` takes a JSON body: a field holding U+0000
 * is 422 on its name (a `client_id=%00` reached Postgres, which refuses NUL, as a 500).
 */
export function withoutNul(
  fields: Record<string, string | undefined>,
): Record<string, string | undefined> {
  for (const [name, value] of Object.entries(fields)) {
    // A route's optional parameter may be missing (undefined) though typed a text.
    if (name.includes('\0') || (typeof value === 'string' && value.includes('\0'))) {
      throw invalidInput({ [name === '' ? 'body' : name]: [NUL_TEXT_MESSAGE] });
    }
  }
  return fields;
}

// The schema speaks first (its own message for a value it refuses), then the NUL check for a
// value it lets through.
export function validQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  const fields = c.req.query();
  const out = parse(schema, fields);
  withoutNul(fields);
  return out;
}

export function validParams<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  const fields = c.req.param();
  const out = parse(schema, fields);
  withoutNul(fields);
  return out;
}

export function parse<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const result = schema.safeParse(raw);
  if (!result.success) throw validationFailure(result.error);
  return result.data;
}
