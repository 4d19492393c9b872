import { DASHBOARD_COLUMNS, DASHBOARD_MAX_ROWS, type DashboardWidget } from '@plant/shared-schema';

/*
 * The grid's layout rules, pure (unit-tested): the widgets' places as react-grid-layout reads
 * them, a layout it answers back as widgets, and the keyboard's moves and sizes with the same
 * collision rule the mouse has (whatever the moved widget now covers is pushed down below it).
 */

/** One widget's place (react-grid-layout's `LayoutItem` shape). */
export interface Place {
  readonly i: string;
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

export function placesOf(widgets: readonly DashboardWidget[]): Place[] {
  return widgets.map((w) => ({ i: w.id, x: w.x, y: w.y, w: w.w, h: w.h }));
}

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

/** A place inside the grid: at least one cell, within the 24 columns and the row limit. */
function fitted(p: Place): Place {
  const w = clamp(Math.round(p.w), 1, DASHBOARD_COLUMNS);
  const h = clamp(Math.round(p.h), 1, DASHBOARD_MAX_ROWS);
  const x = clamp(Math.round(p.x), 0, DASHBOARD_COLUMNS - w);
  const y = clamp(Math.round(p.y), 0, DASHBOARD_MAX_ROWS);
  return { i: p.i, x, y, w, h };
}

/**
 * The widgets at the places of `layout` (react-grid-layout's answer), or null when no widget
 * moved or changed size: a layout change is written once, and only when it is one.
 */
export function widgetsAt(
  widgets: readonly DashboardWidget[],
  layout: readonly Place[],
): DashboardWidget[] | null {
  const byId = new Map(layout.map((p) => [p.i, fitted(p)]));
  let changed = false;
  const next = widgets.map((w) => {
    const p = byId.get(w.id);
    if (p === undefined || (p.x === w.x && p.y === w.y && p.w === w.w && p.h === w.h)) return w;
    changed = true;
    return { ...w, x: p.x, y: p.y, w: p.w, h: p.h };
  });
  return changed ? next : null;
}

const overlaps = (a: Place, b: Place) =>
  a.i !== b.i && a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * `moved` at its new place; every widget it now covers is pushed down below it, and so on for
 * what those cover (in order from the top), so no two widgets overlap.
 */
export function settle(places: readonly Place[], moved: Place): Place[] {
  const fixed: Place[] = [fitted(moved)];
  const rest = places
    .filter((p) => p.i !== moved.i)
    .sort((a, b) => a.y - b.y || a.x - b.x)
    .map((p) => ({ ...p }));
  for (const p of rest) {
    let place = p;
    for (;;) {
      const hit = fixed.find((f) => overlaps(f, place));
      if (hit === undefined) break;
      place = { ...place, y: hit.y + hit.h };
    }
    fixed.push(place);
  }
  const byId = new Map(fixed.map((p) => [p.i, p]));
  return places.map((p) => byId.get(p.i) ?? p);
}

export type Direction = 'left' | 'right' | 'up' | 'down';

/** The keyboard's move (one cell) or size change (one cell wider, narrower, taller, shorter). */
export function nudge(
  places: readonly Place[],
  id: string,
  direction: Direction,
  resize: boolean,
): Place[] {
  const p = places.find((x) => x.i === id);
  if (p === undefined) return [...places];
  const dx = direction === 'left' ? -1 : direction === 'right' ? 1 : 0;
  const dy = direction === 'up' ? -1 : direction === 'down' ? 1 : 0;
  const next = resize
    ? {
        ...p,
        w: clamp(p.w + dx, 1, DASHBOARD_COLUMNS - p.x),
        h: clamp(p.h + dy, 1, DASHBOARD_MAX_ROWS),
      }
    : {
        ...p,
        x: clamp(p.x + dx, 0, DASHBOARD_COLUMNS - p.w),
        y: clamp(p.y + dy, 0, DASHBOARD_MAX_ROWS),
      };
  return settle(places, next);
}

/** Where a new widget of this size goes: the first free spot from the top left. */
export function freeSpot(places: readonly Place[], w: number, h: number): { x: number; y: number } {
  const width = clamp(w, 1, DASHBOARD_COLUMNS);
  for (let y = 0; y <= DASHBOARD_MAX_ROWS; y++) {
    for (let x = 0; x + width <= DASHBOARD_COLUMNS; x++) {
      const spot = { i: '', x, y, w: width, h };
      if (!places.some((p) => overlaps(spot, { ...p, i: `${p.i}#` }))) return { x, y };
    }
  }
  return { x: 0, y: places.reduce((m, p) => Math.max(m, p.y + p.h), 0) };
}
