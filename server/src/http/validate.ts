import type { Context } from 'hono';
import type { z } from 'zod';
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
    return Object.fromEntries(new URLSearchParams(await c.req.text()));
  }
  return readJson(c);
}

/** The body as JSON (an empty body reads as `{}`); malformed JSON: 400. */
export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new MalformedBody();
  }
}

export function validQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  return parse(schema, c.req.query());
}

export function validParams<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  return parse(schema, c.req.param());
}

export function parse<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const result = schema.safeParse(raw);
  if (!result.success) throw validationFailure(result.error);
  return result.data;
}
