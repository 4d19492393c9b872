import { expectTypeOf } from 'vitest';
import type { DatastreamAttributes, GatewayAttributes } from '@plant/shared-schema';
import type { LocalModel, QueryResult } from '@plant/sync-worker/api';
import { textOf } from '../features/devices/asset-texts';
import { useLiveModel, useLiveQuery, useLiveWindow, type ModelState } from './hooks';

/*
 * The screens' side of the registry's types (issue 13; the contract's side is
 * sync-worker/src/api.type-checks.ts): the hooks hand a screen the attributes of the type it
 * names, so it reads them without casts. Compile-time only: tsc checks this file in
 * `npm run typecheck`; each `@ts-expect-error` fails the build if its error goes away, each
 * `expectTypeOf` if a type changes. Nothing calls these.
 */

/** A live query, a watched model and a window each carry their type's attributes. */
export function useTypedScreens(): void {
  const assets = useLiveQuery({ type: 'asset', limit: 10 });
  expectTypeOf(assets).toEqualTypeOf<QueryResult<'asset'> | undefined>();
  expectTypeOf(assets?.items[0]?.attributes.name).toEqualTypeOf<string | undefined>();

  const gateway = useLiveModel('gateway', 'g1');
  expectTypeOf(gateway).toEqualTypeOf<ModelState<'gateway'>>();
  if (gateway.name === 'found') {
    expectTypeOf(gateway.model.attributes).toEqualTypeOf<Readonly<GatewayAttributes>>();
    // @ts-expect-error: gateways have no unit
    void gateway.model.attributes.unit;
  }

  const streams = useLiveWindow({ type: 'datastream' }, { start: 0, end: 20 });
  expectTypeOf(streams.at(0)).toEqualTypeOf<LocalModel<'datastream'> | undefined>();
  expectTypeOf(streams.at(0)?.attributes.type).toEqualTypeOf<
    DatastreamAttributes['type'] | undefined
  >();

  // @ts-expect-error: 'title' is not an asset attribute
  useLiveQuery({ type: 'asset', search: { text: 'press', fields: ['title'] } });
  // @ts-expect-error: not a registry type
  useLiveModel('gadget', 'g1');
}

/** `textOf` takes the names of a type's text attributes only. */
export function textsAreTyped(asset: LocalModel<'asset'>): void {
  expectTypeOf(textOf(asset.attributes, 'mac')).toEqualTypeOf<string>();
  // @ts-expect-error: a wrong field name
  textOf(asset.attributes, 'nmae');
  // @ts-expect-error: tags are a list, not a text
  textOf(asset.attributes, 'tags');
}
