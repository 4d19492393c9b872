import { afterEach, describe, expect, it } from 'vitest';
import { propertyRuns } from './property-runs';

describe('propertyRuns', () => {
  const saved = process.env.PLANT_PROPERTY_SCALE;
  afterEach(() => {
    if (saved === undefined) delete process.env.PLANT_PROPERTY_SCALE;
    else process.env.PLANT_PROPERTY_SCALE = saved;
  });

  it('is the CI size in a plain run, and that times PLANT_PROPERTY_SCALE in a long one', () => {
    delete process.env.PLANT_PROPERTY_SCALE;
    expect(propertyRuns(40)).toBe(40);
    process.env.PLANT_PROPERTY_SCALE = '20';
    expect(propertyRuns(40)).toBe(800);
    process.env.PLANT_PROPERTY_SCALE = '0.01';
    expect(propertyRuns(40)).toBe(1);
  });

  it('refuses a scale that is not a positive number', () => {
    process.env.PLANT_PROPERTY_SCALE = 'lots';
    expect(() => propertyRuns(40)).toThrow(/PLANT_PROPERTY_SCALE must be a positive number/);
    process.env.PLANT_PROPERTY_SCALE = '-1';
    expect(() => propertyRuns(40)).toThrow(/PLANT_PROPERTY_SCALE/);
  });
});
