import { describe, expect, it } from 'vitest';
import type { DashboardWidget } from '@plant/shared-schema';
import { freeSpot, nudge, placesOf, settle, widgetsAt, type Place } from './grid-layout';

const widget = (id: string, x: number, y: number, w: number, h: number): DashboardWidget => ({
  id,
  type: 'value',
  x,
  y,
  w,
  h,
  title: null,
  streams: [],
  options: {},
});

describe('the dashboard grid', () => {
  const widgets = [widget('a', 0, 0, 4, 4), widget('b', 4, 0, 6, 4), widget('c', 0, 4, 12, 8)];
  const places = placesOf(widgets);

  it('a layout that moves nothing writes nothing; one that does gives the widgets their places', () => {
    expect(widgetsAt(widgets, places)).toBeNull();
    const moved = widgetsAt(
      widgets,
      places.map((p) => (p.i === 'b' ? { ...p, x: 8 } : p)),
    );
    expect(moved?.find((w) => w.id === 'b')).toMatchObject({ x: 8, y: 0, w: 6, h: 4 });
    expect(moved?.[0]).toBe(widgets[0]);
  });

  it('the keyboard moves by one cell within the 24 columns, and sizes by one cell', () => {
    const at = (list: Place[], id: string) => list.find((p) => p.i === id);
    expect(at(nudge(places, 'b', 'right', false), 'b')).toMatchObject({ x: 5, y: 0 });
    expect(at(nudge(places, 'a', 'left', false), 'a')).toMatchObject({ x: 0 });
    expect(at(nudge(places, 'a', 'up', false), 'a')).toMatchObject({ y: 0 });
    expect(at(nudge(places, 'b', 'right', true), 'b')).toMatchObject({ x: 4, w: 7 });
    expect(at(nudge(places, 'a', 'left', true), 'a')).toMatchObject({ w: 3 });
    expect(at(nudge(places, 'a', 'down', true), 'a')).toMatchObject({ h: 5 });
    const edge = [{ i: 'e', x: 20, y: 0, w: 4, h: 2 }];
    expect(at(nudge(edge, 'e', 'right', false), 'e')).toMatchObject({ x: 20 });
    expect(at(nudge(edge, 'e', 'right', true), 'e')).toMatchObject({ w: 4 });
  });

  it('what a moved or grown widget covers goes below it, and what that covers after it', () => {
    // a grows by one row: c (under a) goes below a.
    const grown = nudge(places, 'a', 'down', true);
    expect(grown.find((p) => p.i === 'c')).toMatchObject({ y: 5 });
    const stacked = settle(
      [
        { i: 'x', x: 0, y: 0, w: 6, h: 2 },
        { i: 'y', x: 0, y: 2, w: 6, h: 2 },
        { i: 'z', x: 0, y: 4, w: 6, h: 2 },
      ],
      { i: 'x', x: 0, y: 2, w: 6, h: 3 },
    );
    expect(stacked.map((p) => p.y)).toEqual([2, 5, 7]);
  });

  it('a new widget goes to the first free spot', () => {
    expect(freeSpot(places, 4, 4)).toEqual({ x: 10, y: 0 });
    expect(freeSpot(places, 24, 2)).toEqual({ x: 0, y: 12 });
    expect(freeSpot([], 6, 4)).toEqual({ x: 0, y: 0 });
  });
});
