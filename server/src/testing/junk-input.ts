/*
 * Junk made from a JSON Schema (the OpenAPI document's, or a model's attributes): for the
 * bad-input suites, which send every route and every model collection missing, wrong-typed and
 * oversized fields and expect no 500.
 */

export type JsonSchema = Record<string, unknown>;

/** One junk body (or value) and what it is, for the failure's message. */
export interface Junk {
  readonly label: string;
  readonly value: unknown;
}

/** Longer than any text field's limit, well under the body limit. */
export const OVERSIZED_TEXT = 'x'.repeat(20_000);
const OVERSIZED_LIST = Array.from({ length: 5_000 }, (_, i) => `x${i}`);

const SAMPLES: readonly unknown[] = [42, -1.5, 'text', true, null, [], {}, ['a'], { $ne: null }];

/** The JSON types a schema allows; undefined when it allows any value. */
function typesOf(schema: JsonSchema): Set<string> | undefined {
  const out = new Set<string>();
  const add = (s: JsonSchema): boolean => {
    const type = s.type;
    if (typeof type === 'string') out.add(type === 'integer' ? 'number' : type);
    else if (Array.isArray(type))
      for (const t of type) out.add(t === 'integer' ? 'number' : String(t));
    else if ('const' in s) out.add(jsonType(s.const));
    else if (Array.isArray(s.enum)) for (const v of s.enum) out.add(jsonType(v));
    else if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) {
      const list = (s.anyOf ?? s.oneOf) as JsonSchema[];
      return list.every(add);
    } else return false;
    return true;
  };
  return add(schema) ? out : undefined;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Values of another JSON type than the schema allows (none when it takes any value). */
export function wrongTyped(schema: JsonSchema): unknown[] {
  const types = typesOf(schema);
  if (types === undefined) return [];
  return SAMPLES.filter((v) => !types.has(jsonType(v)));
}

/** Values past any sensible size or holding NUL, of each type the schema allows. */
export function oversized(schema: JsonSchema): unknown[] {
  const types = typesOf(schema) ?? new Set(['string', 'array']);
  const out: unknown[] = [];
  // NUL: Postgres stores no U+0000 in text or JSON (a 500 there, stored on SQLite).
  if (types.has('string')) out.push(OVERSIZED_TEXT, 'nul\u0000text');
  if (types.has('array')) out.push(OVERSIZED_LIST);
  if (types.has('number')) out.push(1e308, -1e308);
  return out;
}

/** The properties of an object schema, across the branches of a union of objects. */
export function propertiesOf(schema: JsonSchema): Record<string, JsonSchema> {
  const branches = (schema.anyOf ?? schema.oneOf ?? [schema]) as JsonSchema[];
  const out: Record<string, JsonSchema> = {};
  for (const branch of branches) {
    Object.assign(out, (branch.properties ?? {}) as Record<string, JsonSchema>);
  }
  return out;
}

/**
 * Junk bodies for a body schema: nothing at all (every required field missing), and each field
 * alone wrong-typed or oversized. An array body (a batch) gets the same junk as its one item.
 */
export function junkBodies(schema: JsonSchema): Junk[] {
  if (schema.type === 'array') {
    const items = (schema.items ?? {}) as JsonSchema;
    return [
      { label: '[]', value: [] },
      ...junkBodies(items).map((j) => ({ label: `[${j.label}]`, value: [j.value] })),
    ];
  }
  const out: Junk[] = [{ label: '{}', value: {} }];
  for (const [name, property] of Object.entries(propertiesOf(schema))) {
    for (const value of [...wrongTyped(property), ...oversized(property)]) {
      out.push({
        label: `${name}=${JSON.stringify(value).slice(0, 24)}`,
        value: { [name]: value },
      });
    }
  }
  return out;
}

/** Junk for a query or path parameter: oversized, a NUL (Postgres stores none), and (when it is not text) a word. */
export function junkParameter(schema: JsonSchema): string[] {
  const types = typesOf(schema);
  return [
    'x'.repeat(5_000),
    'a\u0000b',
    ...(types !== undefined && !types.has('string') ? ['not-a-number', '[]'] : []),
  ];
}

/** Runs the calls `width` at a time (one server shares them with the other test file). */
export async function inBatches<T>(
  items: readonly T[],
  width: number,
  run: (item: T) => Promise<void>,
): Promise<void> {
  for (let i = 0; i < items.length; i += width) {
    await Promise.all(items.slice(i, i + width).map(run));
  }
}
