import { describe, expect, it } from 'vitest';
import { idField } from '../api/fields';
import { dashboardWidgetSchema } from './dashboard';
import {
  bindTemplateMetadata,
  bindTemplateWidgets,
  templateStreamKey,
  templateStreamPlace,
} from './dashboard-template';

describe('template dashboards', () => {
  it('a key names a template stream by its place and is a valid id', () => {
    const key = templateStreamKey(2, 5);
    expect(idField.safeParse(key).success).toBe(true);
    expect(templateStreamPlace(key)).toEqual({ group: 2, stream: 5 });
    expect(templateStreamPlace('0190aa00-0000-7000-8000-000000000001')).toBeNull();
  });

  it("an asset's copy names its own streams; a key without a stream there is left out", () => {
    const widget = dashboardWidgetSchema.parse({
      id: 'w1',
      type: 'line',
      x: 2,
      y: 3,
      w: 12,
      h: 8,
      title: 'Drive',
      streams: [templateStreamKey(0, 1), templateStreamKey(1, 0), templateStreamKey(4, 0)],
      options: { min: 0, max: 100 },
    });
    const [bound] = bindTemplateWidgets([widget], [['s00', 's01'], ['s10']]);
    expect(bound).toEqual({ ...widget, streams: ['s01', 's10'] });
    // The template's own widget is not changed.
    expect(widget.streams).toHaveLength(3);
  });

  it("a template hotspot's entries name the asset's streams; texts and links stay", () => {
    const bound = bindTemplateMetadata(
      [
        { kind: 'stream', datastream_id: templateStreamKey(1, 0) },
        { kind: 'stream', datastream_id: templateStreamKey(3, 3) },
        { kind: 'text', text: 'Check the seal.' },
        { kind: 'link', target: 'asset', id: 'a1' },
      ],
      [['s00'], ['s10']],
    );
    expect(bound).toEqual([
      { kind: 'stream', datastream_id: 's10' },
      { kind: 'text', text: 'Check the seal.' },
      { kind: 'link', target: 'asset', id: 'a1' },
    ]);
  });
});
