/**
 * How many cases a property test tries (fast-check's `numRuns`). `npm test` tries each property's
 * CI size, chosen so the whole suite stays a run a developer waits for (issue 29); a long run
 * multiplies every size by PLANT_PROPERTY_SCALE (`PLANT_PROPERTY_SCALE=20 npx vitest run …`),
 * a search for rare cases before a release or after a change to the code a property covers.
 */
export function propertyRuns(ciRuns: number): number {
  const raw = process.env.PLANT_PROPERTY_SCALE;
  const scale = raw === undefined || raw === '' ? 1 : Number(raw);
  if (!Number.isFinite(scale) || scale <= 0) {
    throw new Error(`PLANT_PROPERTY_SCALE must be a positive number, not ${JSON.stringify(raw)}`);
  }
  return Math.max(1, Math.round(ciRuns * scale));
}
