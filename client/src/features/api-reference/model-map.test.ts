import { describe, expect, it } from 'vitest';
import { MODELS } from '@plant/shared-schema';
import { modelMap } from './model-map';

describe('the map of models', () => {
  const map = modelMap();

  it('places every model once under the account', () => {
    expect(map.roots).toEqual(['account']);
    const seen: string[] = [];
    const walk = (type: string) => {
      seen.push(type);
      for (const child of map.byType.get(type)?.children ?? []) walk(child);
    };
    for (const root of map.roots) walk(root);
    expect(seen.sort()).toEqual(MODELS.map((m) => m.type).sort());
  });

  it('has the asset, its stream groups and their streams one under the other', () => {
    expect(map.byType.get('asset')?.children).toContain('datastreamgroup');
    expect(map.byType.get('datastreamgroup')?.children).toEqual(['datastream']);
    expect(map.byType.get('datastream')?.parent).toBe('datastreamgroup');
  });

  it('lists references both ways', () => {
    expect(map.byType.get('datastream')?.refs).toContainEqual({ field: 'asset_id', type: 'asset' });
    expect(map.byType.get('asset')?.referencedBy).toContainEqual({
      type: 'datastream',
      field: 'asset_id',
    });
    expect(map.byType.get('datastream')?.readScope).toBe('datastreams:read');
    expect(map.byType.get('role')?.managed).toBe(true);
  });
});
