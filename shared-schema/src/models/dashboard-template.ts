import type { DashboardWidget } from './dashboard';
import type { HotspotMetadata } from './scene';

/**
 * A template's dashboard names the template's streams by their place, not by id (a template's
 * streams have none): `tpl-{group}-{stream}`, the indexes of the stream's group in the template's
 * `groups` and of the stream in that group's `streams`, both from 0. The key is a valid id
 * (`idField`), so a template dashboard's widgets pass the same schema as any other.
 */
export function templateStreamKey(groupIndex: number, streamIndex: number): string {
  return `tpl-${String(groupIndex)}-${String(streamIndex)}`;
}

const KEY = /^tpl-(\d{1,4})-(\d{1,4})$/;

/** The place a template stream key names, or null for anything else (a real stream id). */
export function templateStreamPlace(key: string): { group: number; stream: number } | null {
  const m = KEY.exec(key);
  if (m === null) return null;
  return { group: Number(m[1]), stream: Number(m[2]) };
}

/**
 * A template dashboard's widgets for an asset made from the template: each key becomes the id of
 * the asset's stream at that place (`streamIds[group][stream]`, made in the template's order); a
 * key without a stream there (the template changed since) is left out, so a widget never names a
 * stream of another asset. The widgets keep their ids, places, titles and options.
 */
export function bindTemplateWidgets(
  widgets: readonly DashboardWidget[],
  streamIds: readonly (readonly string[])[],
): DashboardWidget[] {
  return widgets.map((widget) => ({
    ...widget,
    options: { ...widget.options },
    streams: widget.streams.flatMap((key) => {
      const place = templateStreamPlace(key);
      const id = place === null ? undefined : streamIds[place.group]?.[place.stream];
      return id === undefined ? [] : [id];
    }),
  }));
}

/**
 * A template's hotspot's entries for the asset made from it: each stream key becomes the id of
 * the asset's stream at that place (as `bindTemplateWidgets`), a key without a stream there is
 * left out; the other entries (texts, positions, links) stay as they are.
 */
export function bindTemplateMetadata(
  metadata: readonly HotspotMetadata[],
  streamIds: readonly (readonly string[])[],
): HotspotMetadata[] {
  return metadata.flatMap((entry): HotspotMetadata[] => {
    if (entry.kind !== 'stream') return [{ ...entry }];
    const place = templateStreamPlace(entry.datastream_id);
    const id = place === null ? undefined : streamIds[place.group]?.[place.stream];
    return id === undefined ? [] : [{ kind: 'stream', datastream_id: id }];
  });
}
