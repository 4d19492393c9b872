import { beforeAll, describe, expect, it } from 'vitest';
import type { PermissionContext } from '@plant/shared-schema';
import type * as MayEditModule from './may-edit';
import { installLocalStorage } from '../testing/memory-storage';

let mayEdit: typeof MayEditModule.mayEdit;

beforeAll(async () => {
  // Before the modules load: the session atom reads the stored session when it is made.
  installLocalStorage();
  ({ mayEdit } = await import('./may-edit'));
});

const technician: PermissionContext = {
  activeRoles: [{ id: 'r-1', slug: 'technician' }],
  permissions: ['asset::view', 'asset::edit', 'datastream::view'].map((name) => ({
    name,
    role_id: 'r-1',
  })),
  tags: [],
  featureFlags: [],
  internalFeaturesDisabled: false,
};
const access = { allAssets: false, edit: ['m-1'], hidden: { asset: ['description'] } };
const machine = (id: string) => ({ id, attributes: { name: id } });

describe('mayEdit: the pencil where the server would take the save', () => {
  it('an asset given with the pencil, not one only seen; a hidden field never', () => {
    expect(mayEdit(technician, access, 'asset', machine('m-1'))).toBe(true);
    expect(mayEdit(technician, access, 'asset', machine('m-2'))).toBe(false);
    expect(mayEdit(technician, access, 'asset', machine('m-1'), 'name')).toBe(true);
    expect(mayEdit(technician, access, 'asset', machine('m-1'), 'description')).toBe(false);
  });

  it("a file by its asset's edit right; a stream also needs its own permission", () => {
    const file = (asset: string) => ({ id: 'f', attributes: { asset_id: asset } });
    expect(mayEdit(technician, access, 'file', file('m-1'))).toBe(true);
    expect(mayEdit(technician, access, 'file', file('m-2'))).toBe(false);
    expect(mayEdit(technician, access, 'datastream', file('m-1'))).toBe(false);
  });

  it('every asset when all are open, and by permissions alone for a user stored before access came', () => {
    const all = { allAssets: true, edit: [], hidden: {} };
    expect(mayEdit(technician, all, 'asset', machine('m-2'))).toBe(true);
    expect(mayEdit(technician, undefined, 'asset', machine('m-2'))).toBe(true);
    expect(mayEdit(null, all, 'asset', machine('m-1'))).toBe(false);
  });
});
