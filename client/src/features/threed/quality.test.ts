import { describe, expect, it } from 'vitest';
import type { ThreedLevel } from '@plant/shared-schema';
import { autoQuality, levelFor, lowerQuality } from './quality';

/* The quality a device draws (issue 32 item 6). */
describe('quality levels', () => {
  it('picks low for phones and small memories, medium for tablets, high for desktops', () => {
    expect(autoQuality({ memoryGb: 8, coarsePointer: true, shortSide: 390 })).toBe('low');
    expect(autoQuality({ memoryGb: 2, coarsePointer: false, shortSide: 1080 })).toBe('low');
    expect(autoQuality({ memoryGb: 8, coarsePointer: true, shortSide: 768 })).toBe('medium');
    expect(autoQuality({ memoryGb: 4, coarsePointer: false, shortSide: 1080 })).toBe('medium');
    expect(autoQuality({ memoryGb: undefined, coarsePointer: false, shortSide: 1080 })).toBe(
      'high',
    );
  });

  it('steps down one level at a time and finds the nearest level made', () => {
    expect(lowerQuality('high')).toBe('medium');
    expect(lowerQuality('medium')).toBe('low');
    expect(lowerQuality('low')).toBeNull();
    const levels: ThreedLevel[] = [
      { quality: 'high', file_id: 'h', triangles: 100, bytes: 10 },
      { quality: 'low', file_id: 'l', triangles: 10, bytes: 1 },
    ];
    expect(levelFor(levels, 'medium')?.file_id).toBe('l');
    expect(levelFor(levels, 'high')?.file_id).toBe('h');
  });
});
