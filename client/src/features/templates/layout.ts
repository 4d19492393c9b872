import type { TemplateGroup } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';

/**
 * An asset's layout (spec 001 §1: "saved as a layout"): its stream groups in their order, each
 * with its flags and its streams' settings in the order the asset shows them, and nothing of
 * their values, their ids or their place.
 */
export function layoutOf(
  groups: readonly LocalModel<'datastreamgroup'>[],
  streams: readonly LocalModel<'datastream'>[],
): TemplateGroup[] {
  return groups.map((group) => ({
    name: group.attributes.name,
    collapsible: group.attributes.collapsible,
    open_by_default: group.attributes.open_by_default,
    streams: streams
      .filter((s) => s.attributes.group_id === group.id)
      .map(({ attributes: a }) => ({
        name: a.name,
        unit: a.unit,
        type: a.type,
        vis_min: a.vis_min,
        vis_max: a.vis_max,
        state_texts: { ...a.state_texts },
        preprocessing: a.preprocessing,
      })),
  }));
}

/** How many streams a layout holds over all its groups. */
export function streamCount(groups: readonly TemplateGroup[]): number {
  return groups.reduce((n, g) => n + g.streams.length, 0);
}
