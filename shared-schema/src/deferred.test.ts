import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { deferred, isStandIn, isWaiting, toJsonSchema } from './deferred';

describe('deferred schemas', () => {
  it('are built at their first use, once, and stand in for the schema in every way', () => {
    const build = vi.fn(() => z.object({ name: z.string().min(1), size: z.number().default(3) }));
    const schema = deferred(build);
    expect(build).not.toHaveBeenCalled();
    expect(isWaiting(schema)).toBe(true);

    expect(schema.parse({ name: 'Press 4' })).toEqual({ name: 'Press 4', size: 3 });
    expect(schema.safeParse({ name: '' }).success).toBe(false);
    expect(schema).toBeInstanceOf(z.ZodObject);
    expect(Object.keys(schema.shape)).toEqual(['name', 'size']);
    const wider = schema.extend({ tag: z.string() });
    expect(wider.parse({ name: 'a', tag: 't' })).toEqual({ name: 'a', size: 3, tag: 't' });
    expect(schema.partial().parse({})).toEqual({ size: 3 });
    expect(isWaiting(schema)).toBe(false);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('work as parts of other schemas, also deferred ones', () => {
    const id = deferred(() => z.string().regex(/^[a-z]+$/, 'Invalid id given.'));
    const pair = deferred(() => z.object({ a: id, b: id.nullable().default(null) }));
    expect(pair.parse({ a: 'x' })).toEqual({ a: 'x', b: null });
    const failed = pair.safeParse({ a: 'X1' });
    expect(failed.error?.issues[0]?.message).toBe('Invalid id given.');
  });

  it('hold the schemas themselves as parts once built, so a parse meets no stand-in below its root', () => {
    const id = deferred(() => z.string().min(1));
    const point = deferred(() => z.object({ stream: id, at: z.number() }));
    const batch = deferred(() =>
      z.object({
        gateway: id.nullable(),
        points: z.array(point).min(1),
        pick: z.union([id, point]),
      }),
    );
    expect(isStandIn(batch)).toBe(true);
    const shape = batch.shape;
    expect(isStandIn(shape.gateway.unwrap())).toBe(false);
    expect(isStandIn(shape.points.element)).toBe(false);
    expect(isStandIn(shape.points.element.shape.stream)).toBe(false);
    expect(shape.pick.options.some(isStandIn)).toBe(false);
    expect(batch.parse({ gateway: null, points: [{ stream: 's', at: 1 }], pick: 'x' })).toEqual({
      gateway: null,
      points: [{ stream: 's', at: 1 }],
      pick: 'x',
    });
  });

  it('write the same JSON Schema as the same schema built at once', () => {
    const eager = z.object({
      id: z.string().max(64).pipe(z.string().min(1)),
      tags: z.array(z.string().min(1)).default([]),
      kind: z.enum(['a', 'b']).optional(),
      limits: z.record(z.string(), z.number().int()).nullable(),
    });
    const inner = deferred(() => z.string().max(64).pipe(z.string().min(1)));
    const tag = deferred(() => z.string().min(1));
    const lazy = deferred(() =>
      z.object({
        id: inner,
        tags: z.array(tag).default([]),
        kind: deferred(() => z.enum(['a', 'b'])).optional(),
        limits: z
          .record(
            z.string(),
            deferred(() => z.number().int()),
          )
          .nullable(),
      }),
    );
    for (const io of ['input', 'output'] as const)
      // eslint-disable-next-line no-restricted-properties -- the eager schema is the reference
      expect(toJsonSchema(lazy, { io })).toEqual(z.toJSONSchema(eager, { io }));
  });

  it('write JSON Schema for a schema made outside any deferred build that holds stand-ins', () => {
    const email = deferred(() => z.string().trim().pipe(z.email()));
    const count = deferred(() => z.number().int().default(1));
    const route = z.object({ email, count, list: z.array(email.optional()) });
    const eager = z.object({
      email: z.string().trim().pipe(z.email()),
      count: z.number().int().default(1),
      list: z.array(z.string().trim().pipe(z.email()).optional()),
    });
    for (const io of ['input', 'output'] as const)
      // eslint-disable-next-line no-restricted-properties -- the eager schema is the reference
      expect(toJsonSchema(route, { io })).toEqual(z.toJSONSchema(eager, { io }));
  });

  it('build a recursive shape (a getter naming the schema itself) once', () => {
    interface Node {
      id: string;
      children: Node[];
    }
    const node: z.ZodType<Node> = deferred(() =>
      z.object({
        id: z.string(),
        get children() {
          return z.array(node);
        },
      }),
    );
    expect(node.parse({ id: 'a', children: [{ id: 'b', children: [] }] })).toEqual({
      id: 'a',
      children: [{ id: 'b', children: [] }],
    });
  });

  it("leave every model's attributes unbuilt when the registry is imported", async () => {
    vi.resetModules();
    const { MODELS } = await import('./models/registry');
    const built = MODELS.filter((m) => !isWaiting(m.attributes)).map((m) => m.type);
    expect(built).toEqual([]);
    expect(MODELS.length).toBeGreaterThan(40);
    // A fresh module graph of the registry: 3 s in a busy clean clone, near vitest's 5 s default.
  }, 30_000);
});
