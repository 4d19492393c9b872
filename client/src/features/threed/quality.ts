import { QUALITIES, type Quality, type ThreedLevel } from '@plant/shared-schema';

/*
 * Which quality level a device draws (DESIGN.md §13, issue 32 item 6): picked from the device
 * when the user leaves it on automatic (a phone or a device with little memory gets low, a tablet
 * or a mid-range one medium, the rest high), and one step lower each time the GPU runs out of
 * memory.
 */

export type QualityChoice = Quality | 'auto';

/** What the browser tells of the device (navigator.deviceMemory is Chromium's, in GB). */
export interface DeviceHints {
  readonly memoryGb: number | undefined;
  /** A touch screen as the main pointer (phones, tablets). */
  readonly coarsePointer: boolean;
  /** The screen's shorter side in CSS px. */
  readonly shortSide: number;
}

export function autoQuality(device: DeviceHints): Quality {
  const memory = device.memoryGb;
  if ((memory !== undefined && memory <= 2) || (device.coarsePointer && device.shortSide < 600))
    return 'low';
  if ((memory !== undefined && memory <= 4) || device.coarsePointer) return 'medium';
  return 'high';
}

/** The device's hints, read from the browser. */
export function deviceHints(): DeviceHints {
  const memory = (navigator as Navigator & { deviceMemory?: number }).deviceMemory;
  return {
    memoryGb: typeof memory === 'number' ? memory : undefined,
    coarsePointer: window.matchMedia('(pointer: coarse)').matches,
    shortSide: Math.min(window.screen.width, window.screen.height),
  };
}

/** The next lower quality, or null below low. */
export function lowerQuality(quality: Quality): Quality | null {
  const index = QUALITIES.indexOf(quality);
  return index <= 0 ? null : (QUALITIES[index - 1] ?? null);
}

/** The level to draw for a quality: that one, else the nearest lower one made, else the lowest. */
export function levelFor(
  levels: readonly ThreedLevel[],
  quality: Quality,
): ThreedLevel | undefined {
  for (let q: Quality | null = quality; q !== null; q = lowerQuality(q)) {
    const level = levels.find((l) => l.quality === q);
    if (level !== undefined) return level;
  }
  return levels[0];
}
