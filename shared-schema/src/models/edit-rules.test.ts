import { describe, expect, it } from 'vitest';
import { EDIT_RULES } from './edit-rules';
import { MODELS } from './registry';
import type { ModelDefinition } from './registry-types';

describe('the edit rules', () => {
  it("are the registry's update permission and asset of every type, no more, no less", () => {
    const fromRegistry = Object.fromEntries(
      (MODELS as readonly ModelDefinition[]).map((m) => [
        m.type,
        {
          update: m.permissions.update,
          asset: m.asset ?? null,
          ...(m.assetOptional === true ? { assetOptional: true } : {}),
        },
      ]),
    );
    expect(EDIT_RULES).toEqual(fromRegistry);
  });
});
