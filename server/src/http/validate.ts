import type { Context } from 'hono';
import type { z } from 'zod';
import { MalformedBody, ValidationFailure } from './errors';

/**
 * Reads the body as JSON (or, where a route allows it, as an HTML form, as OAuth clients send) and
 * parses it with the route's shared schema. Malformed input: 400; input that fails the schema: 422.
 */
export async function validBody<S extends z.ZodType>(
  c: Context,
  schema: S,
  options: { allowForm?: boolean } = {},
): Promise<z.output<S>> {
  const type = c.req.header('content-type') ?? '';
  let raw: unknown;
  if (options.allowForm === true && type.startsWith('application/x-www-form-urlencoded')) {
    raw = Object.fromEntries(new URLSearchParams(await c.req.text()));
  } else {
    const text = await c.req.text();
    if (text.trim() === '') {
      raw = {};
    } else {
      try {
        raw = JSON.parse(text);
      } catch {
        throw new MalformedBody();
      }
    }
  }
  return parse(schema, raw);
}

export function validQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  return parse(schema, c.req.query());
}

export function validParams<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  return parse(schema, c.req.param());
}

function parse<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const result = schema.safeParse(raw);
  if (!result.success) throw ValidationFailure.fromZod(result.error);
  return result.data;
}
