import { sql } from 'kysely';
import type { OpenApiDocument, OpenApiParameter } from '@plant/shared-schema';
import { databaseKind, type Db } from '../db/database';
import { propertiesOf, type JsonSchema } from './junk-input';

/*
 * The hostile-input sweep (issue 38 item 5): probes made from the OpenAPI document. Every
 * operation's path parameters, query parameters and body fields (into objects and arrays, to
 * MAX_DEPTH) each get wrong types, huge values and unicode edge cases, one field at a time, while
 * every other field holds the valid value the test gives (so a probe reaches that field's own
 * check, not the first refusal of another field). The test (hostile-sweep.test.ts) sends them to a
 * real server and checks: no 5xx, a refusal changes nothing, the server stays up.
 *
 * junk-input.ts is the smaller, older set the bad-input suites send (every field missing, one
 * junk value per type); this one is the long list, sampled: per field and family one value (of
 * the field's own JSON type half the time, which reaches its limits), or every value (`full`).
 */

/** The three families of hostile values. */
export type Family = 'type' | 'huge' | 'unicode';
export const FAMILIES: readonly Family[] = ['type', 'huge', 'unicode'];

type JsonKind = 'string' | 'number' | 'boolean' | 'null' | 'array' | 'object';

/**
 * A value for a JSON body: `json` is set as it is; `raw` is JSON text put in place as it is
 * (numbers JavaScript cannot hold, nesting deeper than JSON.stringify's stack). `room` is the
 * number of bytes the body has left under its limit: values meant to fit are made that long.
 */
interface BodyVariant {
  readonly family: Family;
  readonly label: string;
  readonly kind: JsonKind;
  readonly make: (room: number) => { json: unknown } | { raw: string };
}

/** A value for a path or query parameter: its text as it goes into the URL (already encoded). */
interface ParamVariant {
  readonly family: Family;
  readonly label: string;
  readonly text: string;
  /** Query only: the whole `name=value` part(s) (a variant with it is never put in a path). */
  readonly query?: (name: string) => string;
}

/** Past any limit of ours; a body with it is over the body limit. */
export const HUGE_LENGTH = 100_000;

const json = (value: unknown) => () => ({ json: value });
const raw = (text: string) => () => ({ raw: text });
const fit = (per: number, max: number, make: (n: number) => unknown) => (room: number) => ({
  json: make(Math.max(1, Math.min(max, Math.floor(room / per)))),
});

/** Strings that trip up text handling: direction, invisible, broken and look-alike characters. */
export const UNICODE_TEXTS: readonly { readonly label: string; readonly text: string }[] = [
  { label: 'bidi override (U+202E)', text: 'invoice\u202Eexe.pdf' },
  {
    label: 'every bidi control',
    text: 'a\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069\u200E\u200F\u061Cb',
  },
  { label: 'null byte', text: 'a\u0000b' },
  { label: 'only a null byte', text: '\u0000' },
  { label: 'lone high surrogate', text: '\ud800' },
  { label: 'lone low surrogate inside', text: 'a\udfffb' },
  { label: 'surrogates reversed', text: '\udc00\ud800' },
  { label: 'zero-width characters', text: '\u200B\u200C\u200D\u2060\uFEFF' },
  { label: 'zero-width joiner emoji', text: '👩\u200D💻👨\u200D👩\u200D👧\u200D👦' },
  { label: 'combining marks', text: `e\u0301Z${'\u0336\u0301\u0302\u0303\u0308'.repeat(40)}` },
  { label: 'emoji', text: '😀🔥🏳️‍🌈👍🏽🇩🇪' },
  { label: 'right-to-left text', text: 'مرحبا بالعالم שלום' },
  { label: 'noncharacters', text: '\uFFFE\uFFFF\uFDD0' },
  { label: 'line and paragraph separators', text: 'a\u2028b\u2029c\u0085d' },
  { label: 'control characters', text: '\u0001\u0007\u001b[31mred\u007f' },
  { label: 'dot segments', text: '../../../etc/passwd' },
  { label: 'percent-encoded null', text: '%00' },
  { label: 'percent-encoded dot segments', text: '%2e%2e%2f%2e%2e%2f' },
  { label: 'compatibility characters', text: 'ﬁ\u212B\u2126ｆｕｌｌ' },
];

const BODY_VARIANTS: readonly BodyVariant[] = [
  // Wrong types: each JSON type; the generator sends those the field's schema does not allow.
  { family: 'type', label: 'number', kind: 'number', make: json(42) },
  { family: 'type', label: 'negative fraction', kind: 'number', make: json(-1.5) },
  { family: 'type', label: 'text', kind: 'string', make: json('text') },
  { family: 'type', label: 'empty text', kind: 'string', make: json('') },
  { family: 'type', label: 'numeric text', kind: 'string', make: json('42') },
  { family: 'type', label: 'true', kind: 'boolean', make: json(true) },
  { family: 'type', label: 'false', kind: 'boolean', make: json(false) },
  { family: 'type', label: 'null', kind: 'null', make: json(null) },
  { family: 'type', label: 'empty array', kind: 'array', make: json([]) },
  { family: 'type', label: 'mixed array', kind: 'array', make: json(['a', 1, null, {}]) },
  { family: 'type', label: 'empty object', kind: 'object', make: json({}) },
  { family: 'type', label: 'operator object', kind: 'object', make: json({ $ne: null }) },
  {
    family: 'type',
    label: '__proto__ object',
    kind: 'object',
    make: raw('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'),
  },
  // Huge: numbers past every range, numbers as text, and lengths past (or just under) the limit.
  { family: 'huge', label: '1e308', kind: 'number', make: json(1e308) },
  { family: 'huge', label: '-1e308', kind: 'number', make: json(-1e308) },
  { family: 'huge', label: '2^53+1', kind: 'number', make: raw('9007199254740993') },
  { family: 'huge', label: '-(2^63+1)', kind: 'number', make: raw('-9223372036854775809') },
  { family: 'huge', label: '1e400 (Infinity)', kind: 'number', make: raw('1e400') },
  { family: 'huge', label: '-1e400', kind: 'number', make: raw('-1e400') },
  { family: 'huge', label: 'smallest denormal', kind: 'number', make: json(5e-324) },
  { family: 'huge', label: '-0', kind: 'number', make: raw('-0') },
  { family: 'huge', label: '2^31', kind: 'number', make: json(2 ** 31) },
  { family: 'huge', label: 'NaN as text', kind: 'string', make: json('NaN') },
  { family: 'huge', label: 'Infinity as text', kind: 'string', make: json('-Infinity') },
  { family: 'huge', label: '1e308 as text', kind: 'string', make: json('1e308') },
  { family: 'huge', label: '2^53+1 as text', kind: 'string', make: json('9007199254740993') },
  {
    family: 'huge',
    label: `${HUGE_LENGTH} characters`,
    kind: 'string',
    make: json('x'.repeat(HUGE_LENGTH)),
  },
  {
    family: 'huge',
    label: 'text filling the body limit',
    kind: 'string',
    make: fit(1, HUGE_LENGTH, (n) => 'x'.repeat(n)),
  },
  {
    family: 'huge',
    label: 'three-byte characters filling the body limit',
    kind: 'string',
    make: fit(3, HUGE_LENGTH, (n) => '€'.repeat(n)),
  },
  {
    family: 'huge',
    label: `${HUGE_LENGTH} items`,
    kind: 'array',
    make: json(new Array<number>(HUGE_LENGTH).fill(0)),
  },
  {
    family: 'huge',
    label: 'numbers filling the body limit',
    kind: 'array',
    make: fit(2, HUGE_LENGTH, (n) => new Array<number>(n).fill(0)),
  },
  {
    family: 'huge',
    label: 'texts filling the body limit',
    kind: 'array',
    make: fit(4, HUGE_LENGTH, (n) => new Array<string>(n).fill('x')),
  },
  {
    family: 'huge',
    label: 'arrays nested 20,000 deep',
    kind: 'array',
    make: (room) => {
      const depth = Math.max(1, Math.min(20_000, Math.floor(room / 2)));
      return { raw: `${'['.repeat(depth)}${']'.repeat(depth)}` };
    },
  },
  {
    family: 'huge',
    label: 'objects nested 5,000 deep',
    kind: 'object',
    make: (room) => {
      const depth = Math.max(1, Math.min(5_000, Math.floor(room / 6)));
      return { raw: `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` };
    },
  },
  {
    family: 'huge',
    label: 'object with thousands of keys',
    kind: 'object',
    make: fit(12, 10_000, (n) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 0])),
    ),
  },
  // Unicode: every text above, long text of astral and combining characters, and such keys.
  ...UNICODE_TEXTS.map(({ label, text }): BodyVariant => ({
    family: 'unicode',
    label,
    kind: 'string',
    make: json(text),
  })),
  {
    family: 'unicode',
    label: 'emoji filling the body limit',
    kind: 'string',
    make: fit(4, HUGE_LENGTH, (n) => '😀'.repeat(n)),
  },
  {
    family: 'unicode',
    label: 'combining marks filling the body limit',
    kind: 'string',
    make: fit(2, HUGE_LENGTH, (n) => `a${'\u0301'.repeat(n)}`),
  },
  {
    family: 'unicode',
    label: 'object keys with bidi, surrogates and null',
    kind: 'object',
    make: json({ '\u202Ekey': 1, '\ud800': 2, 'a\u0000b': 3 }),
  },
  {
    family: 'unicode',
    label: 'array of edge-case texts',
    kind: 'array',
    make: json(UNICODE_TEXTS.map((t) => t.text)),
  },
];

/** A surrogate without its other half: no URL can carry it as text (it goes as bytes below). */
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/** The path and query values: text in a URL, already percent-encoded (or broken on purpose). */
const PARAM_VARIANTS: readonly ParamVariant[] = [
  { family: 'type', label: 'number', text: '42' },
  { family: 'type', label: 'negative fraction', text: '-1.5' },
  { family: 'type', label: 'true', text: 'true' },
  { family: 'type', label: 'null', text: 'null' },
  { family: 'type', label: 'array', text: '%5B%5D' },
  { family: 'type', label: 'object', text: '%7B%22a%22%3A1%7D' },
  { family: 'type', label: '__proto__', text: '__proto__' },
  { family: 'type', label: 'constructor', text: 'constructor' },
  { family: 'type', label: 'empty', text: '' },
  {
    family: 'type',
    label: 'given twice',
    text: 'a',
    query: (name) => `${name}=a&${name}=b`,
  },
  { family: 'type', label: 'without a value', text: '', query: (name) => name },
  { family: 'type', label: 'as an array', text: 'a', query: (name) => `${name}[]=a&${name}[0]=b` },
  { family: 'huge', label: `${HUGE_LENGTH} characters`, text: 'x'.repeat(HUGE_LENGTH) },
  { family: 'huge', label: '8,000 characters', text: 'x'.repeat(8_000) },
  { family: 'huge', label: '65 characters', text: 'x'.repeat(65) },
  { family: 'huge', label: '1e308', text: '1e308' },
  { family: 'huge', label: '-1e308', text: '-1e308' },
  { family: 'huge', label: '1e400', text: '1e400' },
  { family: 'huge', label: '2^53+1', text: '9007199254740993' },
  { family: 'huge', label: 'NaN', text: 'NaN' },
  { family: 'huge', label: 'Infinity', text: 'Infinity' },
  { family: 'huge', label: '-0', text: '-0' },
  { family: 'huge', label: 'hexadecimal', text: '0x7fffffff' },
  ...UNICODE_TEXTS.filter((t) => !LONE_SURROGATE.test(t.text)).map(
    ({ label, text }): ParamVariant => ({
      family: 'unicode',
      label,
      text: encodeURIComponent(text),
    }),
  ),
  { family: 'unicode', label: 'percent-encoded null', text: '%00' },
  { family: 'unicode', label: 'percent-encoded null inside', text: 'a%00b' },
  { family: 'unicode', label: 'lone surrogate as UTF-8', text: '%ED%A0%80' },
  { family: 'unicode', label: 'overlong UTF-8 dots', text: '%C0%AE%C0%AE%2F' },
  { family: 'unicode', label: 'bytes that are not UTF-8', text: '%FF%FE%FD' },
  { family: 'unicode', label: 'truncated UTF-8', text: '%E2%80' },
  { family: 'unicode', label: 'a bare percent', text: '%' },
  { family: 'unicode', label: 'a bad percent escape', text: '%zz' },
  { family: 'unicode', label: 'encoded dot segments', text: '..%2F..%2Fetc%2Fpasswd' },
  // Query only: in a path, the server's URL parser resolves `..` and `%2e%2e` as a step up, and
  // the request goes to another route (`users/%2e%2e/roles/1` is `roles/1`), not to this field.
  { family: 'unicode', label: 'dot-dot', text: '..', query: (name) => `${name}=..` },
  {
    family: 'unicode',
    label: 'encoded dot-dot',
    text: '%2e%2e',
    query: (name) => `${name}=%2e%2e`,
  },
  { family: 'unicode', label: 'encoded slash', text: 'a%2Fb' },
  { family: 'unicode', label: 'CR LF', text: 'a%0D%0AX-Injected%3A%201' },
  { family: 'unicode', label: 'space', text: '%20' },
  { family: 'unicode', label: 'long emoji', text: encodeURIComponent('😀'.repeat(2_000)) },
];

/** How deep the body walk goes into objects and arrays (body.a.b.c). */
export const MAX_DEPTH = 3;

/** One operation of the document, as the sweep sends it: a model collection's are one each. */
export interface SweepRoute {
  /** `PUT /users/{id}/profile`; a model collection's `PUT /assets/{id}`, `PUT /assets (batch)`. */
  readonly key: string;
  readonly method: string;
  /** The document's path, a collection's name put in for `{collection}`. */
  readonly pattern: string;
  readonly parameters: readonly OpenApiParameter[];
  readonly body: JsonSchema | undefined;
  /** The catalog's access (`x-access`): public, first-party, any, scopes. */
  readonly access: string;
  /** The model collection of a generic model route. */
  readonly collection?: string;
  /** Whether the route as a whole is probed too: an unknown query parameter, the whole body. */
  readonly whole: boolean;
}

/** A model collection and its attributes' JSON Schema (the generic routes' bodies). */
export interface SweepCollection {
  readonly collection: string;
  readonly attributes: JsonSchema;
}

/**
 * The document's operations. The generic model routes (`{collection}`) become one route per
 * collection, with the collection's attributes as the body's fields (the document only says "an
 * object"); a POST to a collection is two: one model, and a batch. Only the first collection
 * keeps `collection` as a parameter to probe (the same route matches it for all).
 */
export function sweepRoutes(
  doc: OpenApiDocument,
  collections: readonly SweepCollection[],
): SweepRoute[] {
  const out: SweepRoute[] = [];
  for (const [pattern, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const body = op.requestBody?.content['application/json']?.schema as JsonSchema | undefined;
      const route = {
        method: method.toUpperCase(),
        parameters: op.parameters ?? [],
        access: op['x-access'].kind,
      };
      if (!pattern.includes('{collection}')) {
        out.push({ ...route, key: `${route.method} ${pattern}`, pattern, body, whole: true });
        continue;
      }
      for (const [i, { collection, attributes }] of collections.entries()) {
        const at = pattern.replace('{collection}', collection);
        // The route itself (its collection parameter, an unknown query, the body whole, the batch)
        // once, with the first collection: one handler serves them all. Each collection's own
        // attributes go to its model writes.
        const first = i === 0;
        const parameters = first
          ? route.parameters
          : route.parameters.filter((p) => p.name !== 'collection');
        const model = { ...route, parameters, collection, whole: first };
        // The first keeps `{collection}` in its path, to probe it; the others have their name.
        const own = first ? pattern : at;
        const batch = batchSchema(body);
        if (pattern.endsWith('{id}') || route.method === 'POST') {
          out.push({
            ...model,
            key: `${route.method} ${at}`,
            pattern: own,
            // A delete's body is not read: "an object", probed whole.
            body: route.method === 'DELETE' ? body : withWriteMeta(attributes),
          });
        }
        if (first && batch !== undefined && !pattern.endsWith('{id}')) {
          out.push({ ...model, key: `${route.method} ${at} (batch)`, pattern: own, body: batch });
        }
      }
    }
  }
  return out;
}

/** The batch branch (an array) of a generic route's body. */
function batchSchema(body: JsonSchema | undefined): JsonSchema | undefined {
  if (body === undefined) return undefined;
  if (body.type === 'array') return body;
  const branches = (body.anyOf ?? body.oneOf) as JsonSchema[] | undefined;
  return branches?.find((b) => b.type === 'array');
}

/** A model body: its attributes plus the id and mutation id any write may carry. */
function withWriteMeta(attributes: JsonSchema): JsonSchema {
  return {
    ...attributes,
    properties: {
      ...((attributes.properties ?? {}) as Record<string, JsonSchema>),
      id: { type: 'string', maxLength: 64 },
      mutation_id: { type: 'string', minLength: 8, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' },
    },
  };
}

/** A request the route takes: path and query parameters as plain text, the body as a value. */
export interface ValidRequest {
  readonly path: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/** One hostile request: which field of which route got which value, and the request itself. */
export interface Probe {
  readonly route: string;
  /** `path.id`, `query.from`, `body.window.days.0`, `body` (the whole), `query` (an extra one). */
  readonly field: string;
  readonly family: Family;
  readonly variant: string;
  readonly method: string;
  /** Under the API base, without the leading slash. */
  readonly url: string;
  readonly body: string | undefined;
}

/** How a failing probe is named, and how HOSTILE_SWEEP_ONLY finds it again. */
export function probeName(p: Pick<Probe, 'route' | 'field' | 'family' | 'variant'>): string {
  return `${p.route} ${p.field} ${p.family}:${p.variant}`;
}

/** The JSON kinds a schema allows (undefined: any value). */
function kindsOf(schema: JsonSchema): Set<JsonKind> | undefined {
  const out = new Set<JsonKind>();
  const add = (s: JsonSchema): boolean => {
    const type = s.type;
    const one = (t: unknown) => out.add(t === 'integer' ? 'number' : (String(t) as JsonKind));
    if (typeof type === 'string') one(type);
    else if (Array.isArray(type)) type.forEach(one);
    else if ('const' in s) out.add(kindOf(s.const));
    else if (Array.isArray(s.enum)) s.enum.forEach((v) => out.add(kindOf(v)));
    else if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) {
      return ((s.anyOf ?? s.oneOf) as JsonSchema[]).every(add);
    } else return false;
    return true;
  };
  return add(schema) ? out : undefined;
}

function kindOf(value: unknown): JsonKind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const t = typeof value;
  return t === 'string' || t === 'number' || t === 'boolean' ? t : 'object';
}

/** A schema, where JSON Schema allows `true`/`false` too (a tuple's `items: false`): as `{}`. */
function schemaOf(value: unknown): JsonSchema {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as JsonSchema)
    : {};
}

/** The branch of a union that is not null (the one a field's value is walked into). */
function mainBranch(schema: JsonSchema): JsonSchema {
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (branches === undefined) return schema;
  const objects = branches.filter((b) => b.type === 'object' || b.properties !== undefined);
  if (objects.length > 1) return { type: 'object', properties: propertiesOf(schema) };
  return branches.find((b) => b.type !== 'null') ?? schema;
}

/** A field of a body: where it is, its schema, and the schema of each container on the way. */
interface BodyField {
  readonly path: readonly (string | number)[];
  readonly schema: JsonSchema;
  /** The schema of the value each step of `path` is taken in (the first is the body's). */
  readonly containers: readonly JsonSchema[];
}

/** Every field of a body schema, into objects and arrays (an array's first item) to MAX_DEPTH. */
export function bodyFields(schema: JsonSchema): BodyField[] {
  const out: BodyField[] = [];
  const walk = (s: JsonSchema, path: (string | number)[], containers: JsonSchema[]) => {
    if (path.length >= MAX_DEPTH) return;
    const main = mainBranch(s);
    const inside = [...containers, s];
    if (main.type === 'array' && Array.isArray(main.prefixItems)) {
      for (const [i, item] of main.prefixItems.entries()) {
        out.push({ path: [...path, i], schema: schemaOf(item), containers: inside });
        walk(schemaOf(item), [...path, i], inside);
      }
      return;
    }
    if (main.type === 'array' && main.items !== undefined) {
      const items = schemaOf(main.items);
      out.push({ path: [...path, 0], schema: items, containers: inside });
      walk(items, [...path, 0], inside);
      return;
    }
    for (const [name, property] of Object.entries(
      (main.properties ?? {}) as Record<string, JsonSchema>,
    )) {
      out.push({ path: [...path, name], schema: property, containers: inside });
      walk(property, [...path, name], inside);
    }
  };
  walk(schema, [], []);
  return out;
}

/** Text that passes a pattern, tried from a few shapes the platform's patterns take. */
const PATTERN_TRIES = [
  'sweep',
  'abcdefghijklmnopqrstuvwx',
  'abc',
  'a',
  '0',
  '1',
  '12:00',
  '2026-01-01',
  '2026-01-01T00:00:00.000Z',
  '#336699',
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij_-0123',
  '0194f3a2-6b1c-7d2e-8f00-0123456789ab',
];

function stringFor(schema: JsonSchema): string {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : 1_000;
  const sized = (text: string) => text.padEnd(min, 'x').slice(0, max);
  switch (schema.format) {
    case 'date-time':
      return '2026-01-01T00:00:00.000Z';
    case 'date':
      return '2026-01-01';
    case 'uri':
    case 'url':
      return 'https://example.com/sweep';
    case 'email':
      return 'sweep@example.com';
    case 'uuid':
      return '0194f3a2-6b1c-7d2e-8f00-0123456789ab';
    default:
  }
  if (typeof schema.pattern === 'string') {
    const pattern = new RegExp(schema.pattern, 'u');
    for (const tried of PATTERN_TRIES) {
      for (const text of [tried, sized(tried), tried.repeat(Math.max(1, min))]) {
        if (text.length >= min && text.length <= max && pattern.test(text)) return text;
      }
    }
  }
  return sized('sweep');
}

/**
 * A value a schema takes (its const, first option, default, example; else the smallest that
 * passes its bounds): where the test knows no better value of the demo data.
 */
export function validValue(given: unknown): unknown {
  const schema = schemaOf(given);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.anyOf !== undefined || schema.oneOf !== undefined) {
    const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[];
    const first = branches.find((b) => b.type !== 'null') ?? branches[0];
    return first === undefined ? null : validValue(first);
  }
  const type = Array.isArray(schema.type) ? (schema.type as unknown[])[0] : schema.type;
  switch (type) {
    case 'string':
      return stringFor(schema);
    case 'integer':
    case 'number': {
      const min =
        typeof schema.minimum === 'number'
          ? schema.minimum
          : typeof schema.exclusiveMinimum === 'number'
            ? schema.exclusiveMinimum + 1
            : 0;
      const max = typeof schema.maximum === 'number' ? schema.maximum : Number.MAX_SAFE_INTEGER;
      return Math.min(Math.max(min, 0), max);
    }
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array': {
      if (Array.isArray(schema.prefixItems)) return schema.prefixItems.map(validValue);
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      return Array.from({ length: min }, () => validValue(schema.items));
    }
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = (schema.required ?? []) as string[];
      return Object.fromEntries(required.map((name) => [name, validValue(properties[name] ?? {})]));
    }
    default:
      return 'sweep';
  }
}

/** The request a route takes by its schemas alone (required parameters and body fields). */
export function validRequestOf(route: SweepRoute): ValidRequest {
  const path: Record<string, string> = {};
  const query: Record<string, string> = {};
  for (const p of route.parameters) {
    if (p.in === 'path') path[p.name] = String(validValue(p.schema));
    else if (p.required) query[p.name] = String(validValue(p.schema));
  }
  return {
    path,
    query,
    ...(route.body === undefined ? {} : { body: validValue(route.body) }),
  };
}

/** A request's URL (under the API base, no leading slash); `replace` puts a hostile value in. */
export function urlOf(
  route: Pick<SweepRoute, 'pattern'>,
  request: ValidRequest,
  replace?: {
    readonly in: 'path' | 'query';
    readonly name: string;
    readonly variant: ParamVariant;
  },
): string {
  let url = route.pattern.replace(/\{(\w+)\}/g, (_, name: string) =>
    replace?.in === 'path' && replace.name === name
      ? replace.variant.text
      : encodeURIComponent(request.path[name] ?? ''),
  );
  const parts = Object.entries(request.query)
    .filter(([name]) => !(replace?.in === 'query' && replace.name === name))
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  if (replace?.in === 'query') {
    parts.push(replace.variant.query?.(replace.name) ?? `${replace.name}=${replace.variant.text}`);
  }
  if (parts.length > 0) url += `?${parts.join('&')}`;
  return url.slice(1);
}

const PLACE = '\u0001hostile-sweep\u0001';
const PLACED = JSON.stringify(PLACE);

/** `value` with `put` at the field's path from step `i` on (containers made when missing). */
function setAt(value: unknown, field: BodyField, i: number, put: unknown): unknown {
  const step = field.path[i];
  if (step === undefined) return put;
  const schema = mainBranch(field.containers[i] ?? {});
  if (typeof step === 'number') {
    const list: unknown[] = Array.isArray(value) ? [...(value as unknown[])] : [];
    if (list.length === 0) {
      const made = validValue(schema);
      if (Array.isArray(made)) list.push(...(made as unknown[]));
    }
    while (list.length <= step) {
      const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : undefined;
      list.push(validValue(prefix === undefined ? schema.items : prefix[list.length]));
    }
    list[step] = setAt(list[step], field, i + 1, put);
    return list;
  }
  const made = value ?? validValue(schema);
  const object: Record<string, unknown> =
    made !== null && typeof made === 'object' && !Array.isArray(made)
      ? { ...(made as Record<string, unknown>) }
      : {};
  object[step] = setAt(object[step], field, i + 1, put);
  return object;
}

/** The body's JSON text with `value` at the field. */
function bodyWith(
  base: unknown,
  field: BodyField,
  value: { json: unknown } | { raw: string },
): string {
  const text = JSON.stringify(setAt(base, field, 0, 'json' in value ? value.json : PLACE));
  return 'raw' in value ? text.replace(PLACED, value.raw) : text;
}

/** Bytes left under the body limit once the base body is there (with room for the key). */
function roomIn(base: unknown, maxBodyBytes: number): number {
  const used = Buffer.byteLength(JSON.stringify(base ?? {}));
  return Math.max(16, maxBodyBytes - used - 256);
}

export interface SweepOptions {
  /**
   * Every value of every family for every field (HOSTILE_SWEEP=full); else a sample, in which a
   * model collection's attributes go, per field and family, to its create or its update (chosen
   * by `seed`): the attributes are the document's "an object", walked by the sweep besides.
   */
  readonly full: boolean;
  readonly seed: number;
  /** The seeded random numbers the sample and the order come from. */
  readonly random: () => number;
  readonly maxBodyBytes: number;
}

/**
 * Picks a field's values of one family: all of them (`full`), or one of the field's own JSON type
 * where the family has one (it reaches the field's own limits) and one more of any type.
 */
function pick<T extends { readonly family: Family }>(
  list: readonly T[],
  family: Family,
  own: (v: T) => boolean,
  options: SweepOptions,
): T[] {
  const ofFamily = list.filter((v) => v.family === family);
  if (options.full) return ofFamily;
  const chosen: T[] = [];
  const one = (from: readonly T[]) => {
    const v = from[Math.floor(options.random() * from.length)];
    if (v !== undefined) chosen.push(v);
  };
  one(options.random() < 0.5 ? ofFamily.filter(own) : ofFamily);
  if (chosen.length === 0) one(ofFamily);
  return chosen;
}

/**
 * Every probe of a route: each path and query parameter, each body field, the body as a whole
 * and an unknown query parameter, with values of each family; all other fields as in `valid`.
 */
export function probesOf(route: SweepRoute, valid: ValidRequest, options: SweepOptions): Probe[] {
  const out: Probe[] = [];
  const hasBody = route.method !== 'GET';
  const baseBody = hasBody ? JSON.stringify(valid.body ?? {}) : undefined;
  const add = (field: string, family: Family, variant: string, url: string, body?: string) =>
    out.push({
      route: route.key,
      field,
      family,
      variant,
      method: route.method,
      url,
      body: body ?? baseBody,
    });

  for (const p of route.parameters) {
    const kinds = kindsOf(p.schema);
    const textual = kinds === undefined || kinds.has('string');
    for (const family of FAMILIES) {
      // A parameter's "own type" is text: values that are text to its schema (not a number word).
      const own = (v: ParamVariant) => textual === /^[A-Za-z%._-]/.test(v.text);
      const list = PARAM_VARIANTS.filter((v) => p.in === 'query' || v.query === undefined);
      for (const v of pick(list, family, own, options)) {
        add(
          `${p.in}.${p.name}`,
          family,
          v.label,
          urlOf(route, valid, { in: p.in, name: p.name, variant: v }),
        );
      }
    }
  }
  // A query parameter no route knows, and (where a body is read) the body as a whole.
  for (const family of route.whole ? FAMILIES : []) {
    for (const v of pick(PARAM_VARIANTS, family, () => true, options)) {
      add(
        'query',
        family,
        v.label,
        urlOf(route, valid, { in: 'query', name: 'unknown', variant: v }),
      );
    }
  }
  if (!hasBody) return out;
  const url = urlOf(route, valid);
  const room = options.maxBodyBytes - 256;
  for (const family of route.whole ? FAMILIES : []) {
    const own = (v: BodyVariant) => v.kind === 'object' || v.kind === 'array';
    for (const v of pick(BODY_VARIANTS, family, own, options)) {
      const made = v.make(room);
      add('body', family, v.label, url, 'json' in made ? JSON.stringify(made.json) : made.raw);
    }
  }
  if (route.body === undefined) return out;
  const fieldRoom = roomIn(valid.body, options.maxBodyBytes);
  const fields = bodyFields(route.body);
  // A key the schema does not name, next to the valid fields: kept, dropped or refused.
  if (kindOf(valid.body) === 'object') {
    fields.push({ path: ['\u202Eunknown'], schema: {}, containers: [route.body] });
  }
  for (const field of fields) {
    const kinds = kindsOf(field.schema);
    const name = `body.${field.path.join('.')}`;
    for (const family of FAMILIES) {
      if (!options.full && !sharedHere(route, name, family, options.seed)) continue;
      const own = (v: BodyVariant) => kinds === undefined || kinds.has(v.kind);
      // Wrong types only: a value of an allowed type is not a wrong type.
      const list =
        family === 'type' && kinds !== undefined
          ? BODY_VARIANTS.filter((v) => !kinds.has(v.kind))
          : BODY_VARIANTS;
      for (const v of pick(list, family, own, options)) {
        add(name, family, v.label, url, bodyWith(valid.body, field, v.make(fieldRoom)));
      }
    }
  }
  return out;
}

/**
 * Whether a model attribute's probe of this family is the create's or the update's (a model
 * route of a collection, object body): one of the two, by the seed. Any other route: its own.
 */
function sharedHere(route: SweepRoute, field: string, family: Family, seed: number): boolean {
  if (route.collection === undefined || route.key.endsWith('(batch)')) return true;
  if (route.method !== 'POST' && route.method !== 'PUT') return true;
  const side = seededRandom(hashOf(`${seed} ${route.collection} ${field} ${family}`))() < 0.5;
  return side === (route.method === 'POST');
}

/** FNV-1a of a text: a seed made of several parts. */
function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Seeded random numbers (mulberry32): the same seed gives the same sample and order. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The items in an order the random numbers choose (Fisher-Yates). */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * Which tables the database's writes changed since the last look: a trigger on every table notes
 * each inserted, deleted or really changed row (an update to the same values changes nothing) in
 * a table of its own, `sweep_writes`. Cheap where hashing every table after each accepted write
 * was not (a refused request's check is one small delete), and sound: a note is written in the
 * transaction of its change, so a change rolled back leaves none, and a change committed always
 * leaves one. SQLite: TEMP triggers of the one connection that writes the platform database (the
 * server's, which the test shares); Postgres: triggers on the tables, so every pooled connection's
 * changes are noted. Answers the tables no trigger could watch (virtual tables: their shadow
 * tables are watched) with the function that reads and clears the notes.
 */
export async function watchWrites(
  db: Db,
  /** Tables whose writes are no change to the sweep (what the server records by design). */
  ignored: (table: string) => boolean = () => false,
): Promise<{ readonly unwatched: readonly string[]; readonly take: () => Promise<string[]> }> {
  const tables = (await db.introspection.getTables()).filter((t) => !ignored(t.name));
  const unwatched: string[] = [];
  const q = (name: string) => `"${name.replaceAll('"', '""')}"`;
  const run = (text: string) => sql.raw(text).execute(db);
  if (databaseKind(db) === 'sqlite') {
    await run('create temp table sweep_writes (t text not null)');
    for (const [i, t] of tables.entries()) {
      const name = t.name.replaceAll("'", "''");
      const note = `begin insert into temp.sweep_writes values ('${name}'); end`;
      const same = t.columns.map((c) => `old.${q(c.name)} is new.${q(c.name)}`).join(' and ');
      try {
        await run(`create temp trigger sweep_i${i} after insert on main.${q(t.name)} ${note}`);
        await run(`create temp trigger sweep_d${i} after delete on main.${q(t.name)} ${note}`);
        await run(
          `create temp trigger sweep_u${i} after update on main.${q(t.name)}
            when not (${same}) ${note}`,
        );
      } catch {
        unwatched.push(t.name);
      }
    }
  } else {
    await run('create table sweep_writes (t text not null)');
    await run(
      `create function sweep_note() returns trigger language plpgsql as $$ begin
        insert into sweep_writes values (TG_TABLE_NAME); return null; end $$`,
    );
    for (const t of tables) {
      const table = `${q(t.schema ?? 'public')}.${q(t.name)}`;
      try {
        await run(
          `create trigger sweep_w after insert or delete on ${table}
            for each row execute function sweep_note()`,
        );
        await run(
          `create trigger sweep_u after update on ${table}
            for each row when (old.* is distinct from new.*) execute function sweep_note()`,
        );
      } catch {
        unwatched.push(t.name);
      }
    }
  }
  const take = async () => {
    const { rows } = await sql<{ t: string }>`delete from sweep_writes returning t`.execute(db);
    return [...new Set(rows.map((r) => r.t))].sort();
  };
  return { unwatched, take };
}
