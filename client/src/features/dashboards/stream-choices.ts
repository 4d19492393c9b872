import { useMemo } from 'react';
import { templateStreamKey } from '@plant/shared-schema';
import { useLiveModel, useLiveQuery } from '../../sync/hooks';
import type { StreamChoice } from './widgets';

/** Whose a dashboard is: an asset's, a template's, or (both null) the account's. */
export interface DashboardScope {
  readonly assetId: string | null;
  readonly templateId: string | null;
}

/**
 * The streams a widget of this dashboard may show: only those in the local store, which holds
 * what the user sees (DESIGN.md §10), of the dashboard's asset, or of every asset for the
 * account's dashboard; a template's dashboard offers the template's streams by their keys
 * (`templateStreamKey`). Undefined while they load.
 */
export function useStreamChoices(scope: DashboardScope): readonly StreamChoice[] | undefined {
  const template = useLiveModel('template', scope.templateId ?? '');
  const forAssets = scope.templateId === null;
  const streams = useLiveQuery(forAssets ? { type: 'datastream', limit: 1000 } : null);
  const groups = useLiveQuery(forAssets ? { type: 'datastreamgroup', limit: 1000 } : null);
  const assets = useLiveQuery(forAssets ? { type: 'asset', limit: 1000 } : null);

  return useMemo(() => {
    if (scope.templateId !== null) {
      if (template.name !== 'found') return template.name === 'loading' ? undefined : [];
      const name = template.model.attributes.name;
      return template.model.attributes.groups.flatMap((group, g) =>
        group.streams.map((stream, s) => ({
          id: templateStreamKey(g, s),
          name: stream.name,
          unit: stream.unit,
          type: stream.type,
          assetName: name,
          groupName: group.name,
        })),
      );
    }
    if (streams === undefined || groups === undefined || assets === undefined) return undefined;
    const groupName = new Map(groups.items.map((g) => [g.id, g.attributes.name]));
    const assetName = new Map(assets.items.map((a) => [a.id, a.attributes.name]));
    return streams.items
      .filter((s) => scope.assetId === null || s.attributes.asset_id === scope.assetId)
      .map((s) => ({
        id: s.id,
        name: s.attributes.name,
        unit: s.attributes.unit,
        type: s.attributes.type,
        assetName: assetName.get(s.attributes.asset_id) ?? '',
        groupName: groupName.get(s.attributes.group_id) ?? '',
      }));
  }, [scope.assetId, scope.templateId, template, streams, groups, assets]);
}
