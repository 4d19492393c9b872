import { z } from 'zod';

// Registered symbols: a second copy of this module (a test's fresh import) knows them too.
const BUILT = Symbol.for('@plant/shared-schema: deferred, built');
const WAITING = Symbol.for('@plant/shared-schema: deferred, waiting');

/**
 * A value built on its first use rather than when its module is imported: the shared schemas are
 * hundreds of zod objects, and building them all cost the sync worker's and the page's start
 * about 100 ms (bench CONTEXT, "The offline reload"), though a start needs few of them. The value
 * stands in for what `build` returns in every way a caller can see (properties, methods,
 * `instanceof`, keys); `build` runs once, at the first look.
 *
 * A schema built from others holds their stand-ins at first; once built, they are swapped for
 * the schemas they stand for (`swapStandIns`), so a parse goes through no stand-in below its
 * root (a stand-in's every look is a Proxy trap: a gateway batch met three per point) and zod's
 * JSON Schema finds each part under the object it walks.
 */
export function deferred<T extends object>(build: () => T): T {
  let built: T | undefined;
  const target = (): T => {
    if (built !== undefined) return built;
    // Kept before its parts are swapped: a part that names this schema again (a recursive
    // shape's getter, read by the swap) finds it built instead of building it anew.
    built = build();
    withPartsBuilt(built);
    return built;
  };
  return new Proxy({} as T, {
    get: (_, key) => {
      if (key === WAITING) return built === undefined;
      return key === BUILT ? target() : Reflect.get(target(), key);
    },
    set: (_, key, value) => Reflect.set(target(), key, value),
    has: (_, key) => Reflect.has(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_, key) => {
      const found = Reflect.getOwnPropertyDescriptor(target(), key);
      // A proxy may not report a property its own (empty) target lacks as non-configurable.
      return found === undefined ? undefined : { ...found, configurable: true };
    },
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(target(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(target(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(target()),
  });
}

/** Whether `value` is a deferred stand-in whose build has not run yet (for tests). */
export function isWaiting(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Reflect.get(value, WAITING) === true;
}

/** Whether `value` is a deferred stand-in, built or not (for tests). */
export function isStandIn(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Reflect.get(value, WAITING) !== undefined;
}

/** What a stand-in stands for (built now if it was not); anything else as it is. */
function standsFor(value: object): unknown {
  return Reflect.get(value, BUILT) ?? value;
}

interface SchemaLike {
  readonly _zod: {
    readonly def: Record<string, unknown>;
    readonly traits: Set<string>;
    parent?: unknown;
  };
}

function isSchema(value: unknown): value is SchemaLike {
  if (typeof value !== 'object' || value === null || !('_zod' in value)) return false;
  const inner = (value as { _zod: { traits?: unknown } })._zod;
  // A check (`.min(1)`) has a `_zod` too, but no `$ZodType` among its traits.
  return inner.traits instanceof Set && inner.traits.has('$ZodType');
}

function isPlainRecord(value: object): value is Record<string, unknown> {
  return Object.getPrototypeOf(value) === Object.prototype;
}

function withPartsBuilt<T>(made: T): T {
  if (isSchema(made)) swapStandIns(made, new Set());
  return made;
}

/**
 * Replaces the stand-ins among a just-built schema's parts by what they stand for, in place,
 * before its first parse: its definition's children, lists and shapes, the `parent` a check's
 * copy keeps, the parts it copies onto itself. A stand-in's own parts were swapped at its build;
 * schemas made inside this build are walked. Checks and other values are left as they are.
 */
function swapStandIns(schema: SchemaLike, seen: Set<object>): void {
  if (seen.has(schema)) return;
  seen.add(schema);
  const inner = schema._zod;
  if (typeof inner.parent === 'object' && inner.parent !== null)
    inner.parent = swapIn(inner.parent, seen);
  const def = inner.def;
  for (const key of Object.keys(def)) {
    if (key === 'checks') continue;
    const value = def[key];
    const next = swapIn(value, seen);
    if (next !== value) def[key] = next;
  }
  // Some schemas copy a part onto themselves too (an array's `element`).
  const own = schema as unknown as Record<string, unknown>;
  for (const key of Object.keys(own)) {
    const value = own[key];
    if (typeof value !== 'object' || value === null) continue;
    const real = standsFor(value);
    if (real !== value) own[key] = real;
  }
}

function swapIn(value: unknown, seen: Set<object>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const real = standsFor(value);
  if (real !== value) return real;
  if (isSchema(value)) {
    swapStandIns(value, seen);
  } else if (Array.isArray(value)) {
    value.forEach((item: unknown, i) => {
      const next = swapIn(item, seen);
      if (next !== item) value[i] = next;
    });
  } else if (isPlainRecord(value)) {
    for (const [key, item] of Object.entries(value)) {
      const next = swapIn(item, seen);
      if (next !== item) value[key] = next;
    }
  }
  return value;
}

/**
 * `z.toJSONSchema` for schemas with stand-ins among their parts (lint refuses it elsewhere): zod's
 * processors look for a part under the built schema, its walk files it under the stand-in. A
 * schema made outside any deferred build (`z.object({ email: emailField })` in a route) still
 * holds stand-ins: its parts are swapped here first, in place (they stand for the same).
 */
export function toJsonSchema(schema: z.ZodType, params?: z.core.ToJSONSchemaParams) {
  const real = withPartsBuilt(standsFor(schema) as z.ZodType);
  // eslint-disable-next-line no-restricted-properties -- the one call, on the swapped schema
  return z.toJSONSchema(real, params);
}
