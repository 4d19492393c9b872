import { expectTypeOf } from 'vitest';
import type { AssetAttributes, DatastreamAttributes } from '@plant/shared-schema';
import type { DataArea, LocalModel, QueryResult, WritesArea } from './api';

/*
 * The query path is typed by the registry (issue 13): a watch or query of a type hands its zod
 * attribute type to the screen, and a write takes that type's fields. Compile-time only: tsc
 * checks this file in `npm run typecheck` (part of `npm test`); each `@ts-expect-error` fails the
 * build if its error goes away, each `expectTypeOf` if a type changes. Nothing calls these.
 */

/** A watch or query of a type hands the screen that type's attributes. */
export function readsAreTyped(data: DataArea): void {
  {
    void data.watch('asset', 'a1', (model) => {
      expectTypeOf(model).toEqualTypeOf<LocalModel<'asset'> | null>();
      if (model !== null) {
        expectTypeOf(model.attributes.name).toEqualTypeOf<string>();
        expectTypeOf(model.attributes).toEqualTypeOf<Readonly<AssetAttributes>>();
        // @ts-expect-error: assets have no unit
        void model.attributes.unit;
      }
    });
    void data.subscribe({ type: 'datastream', limit: 10 }, (result) => {
      expectTypeOf(result).toEqualTypeOf<QueryResult<'datastream'>>();
      expectTypeOf(result.items[0]?.attributes).toEqualTypeOf<
        Readonly<DatastreamAttributes> | undefined
      >();
    });
    // Search fields are the type's attribute names.
    void data.subscribe(
      { type: 'asset', search: { text: 'press', fields: ['name', 'mac'] } },
      () => undefined,
    );
    // @ts-expect-error: 'title' is not an asset attribute
    void data.subscribe({ type: 'asset', search: { text: 'x', fields: ['title'] } }, () => 0);
    // @ts-expect-error: not a registry type
    void data.watch('gadget', 'g1', () => undefined);
  }
}

/** A create or an update takes the type's fields; a wrong name or value does not compile. */
export function writesAreTyped(writes: WritesArea): void {
  {
    void writes.create('asset', { name: 'Press 7' });
    void writes.update('datastream', 's1', { unit: 'bar', vis_min: 0 });
    // @ts-expect-error: a wrong field name
    void writes.create('asset', { name: 'Press 7', nmae: 'typo' });
    // @ts-expect-error: a wrong field name
    void writes.update('asset', 'a1', { titel: 'x' });
    // @ts-expect-error: a wrong value type
    void writes.update('datastream', 's1', { vis_min: 'low' });
    // @ts-expect-error: an asset needs a name
    void writes.create('asset', { description: 'no name' });
  }
}
