import { describe, expect, it } from 'vitest';
import { FEEDBACK_PERMISSIONS } from './ticket';
import { SERVICE_PERMISSIONS } from './service-request';
import {
  AREA_EXTRAS,
  CHOOSABLE_FIELDS,
  FIELD_TYPES,
  MODEL_PERMISSION_TABLE,
} from './permission-table';
import { choosableFields, MODELS, modelByType } from './registry';

describe('the permission table', () => {
  it('says what the registry says, type by type and in its order', () => {
    expect(MODEL_PERMISSION_TABLE).toEqual(
      MODELS.map((m) => ({
        type: m.type,
        collection: m.collection,
        ...('managed' in m && m.managed === true ? { managed: true } : {}),
        permissions: { ...m.permissions },
      })),
    );
  });

  it('lists the fields a role chooses as the registry gives them', () => {
    for (const type of FIELD_TYPES) {
      const def = modelByType(type);
      expect(def).toBeDefined();
      if (def !== undefined) expect(CHOOSABLE_FIELDS[type]).toEqual(choosableFields(def));
    }
  });

  it('names the permissions no model has by their constants', () => {
    expect(AREA_EXTRAS).toEqual([FEEDBACK_PERMISSIONS.develop, SERVICE_PERMISSIONS.agent]);
  });
});
