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
 */
export function deferred<T extends object>(build: () => T): T {
  let built: T | undefined;
  const target = (): T => (built ??= build());
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

interface SchemaLike {
  readonly _zod: { readonly def: Record<string, unknown>; readonly traits: Set<string> };
  clone(def: Record<string, unknown>): SchemaLike;
}

function isSchema(value: unknown): value is SchemaLike {
  if (typeof value !== 'object' || value === null || !('_zod' in value)) return false;
  const inner = (value as { _zod: { traits?: unknown } })._zod;
  // A check (`.min(1)`) has a `_zod` too, but no `$ZodType` among its traits.
  return inner.traits instanceof Set && inner.traits.has('$ZodType');
}

/**
 * The same schema with no deferred part left: for `z.toJSONSchema`, which tells the parts of a
 * schema apart by identity and would not find a deferred one's (its processors see the built
 * schema, its walk the stand-in). Every part is a fresh copy, each copy met once (`done`).
 * Parsing never needs this.
 */
export function materialized<T>(schema: T, done = new Map<object, SchemaLike>()): T {
  if (!isSchema(schema)) return schema;
  const real = ((schema as Record<symbol, unknown>)[BUILT] ?? schema) as SchemaLike;
  const known = done.get(real);
  if (known !== undefined) return known as T;
  const swap = (value: unknown): unknown =>
    isSchema(value)
      ? materialized(value, done)
      : Array.isArray(value)
        ? value.map(swap)
        : isPlainRecord(value)
          ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, swap(v)]))
          : value;
  const def = Object.fromEntries(
    Object.entries(real._zod.def).map(([key, value]) => [
      key,
      key === 'checks' ? value : swap(value),
    ]),
  );
  const copy = real.clone(def);
  done.set(real, copy);
  return copy as T;
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype
  );
}

/**
 * `z.toJSONSchema` for the shared schemas, which are deferred (above): the only way to write one
 * as JSON Schema (lint refuses `z.toJSONSchema` elsewhere).
 */
export function toJsonSchema(schema: z.ZodType, params?: z.core.ToJSONSchemaParams) {
  // eslint-disable-next-line no-restricted-properties -- the one call, on the materialized copy
  return z.toJSONSchema(materialized(schema), params);
}
