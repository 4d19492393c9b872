import { describe, expect, it } from 'vitest';
import { changedFields } from './changed-fields';

describe('changedFields', () => {
  it('answers the fields whose value differs from the base, by value, nested ones too', () => {
    const base = { name: 'Pump', unit: 'bar', tags: ['a'], position: { lat: 1, lng: 2 } };
    expect(changedFields({ ...base, tags: ['a'], position: { lat: 1, lng: 2 } }, base)).toEqual({});
    expect(changedFields({ ...base, unit: 'psi', tags: ['a', 'b'] }, base)).toEqual({
      unit: 'psi',
      tags: ['a', 'b'],
    });
    // A field the base lacks, or one set to null, counts as changed.
    expect(changedFields({ name: 'Pump', note: null }, { name: 'Pump' })).toEqual({ note: null });
  });
});
