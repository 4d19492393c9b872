import { Trans, useLingui } from '@lingui/react/macro';
import { Group, Stack, Title } from '@mantine/core';
import { useCan } from '../../permissions/permissions';
import { useLiveQuery } from '../../sync/hooks';
import { AlarmsTable } from './alarms-table';
import { NewAlarmButton } from './alarms-list-page';

/**
 * The "Alarms" section of an asset's page (its alarms) or a stream's page (the stream's, with a
 * new alarm for that stream), from the local store. Nothing without alarm::view.
 */
export function AlarmsSection(
  props:
    | { readonly assetId: string; readonly streamId?: undefined }
    | { readonly assetId: string; readonly streamId: string },
) {
  const { t } = useLingui();
  const can = useCan();
  const allowed = can('alarm::view');
  const alarms = useLiveQuery(
    !allowed
      ? null
      : props.streamId === undefined
        ? { type: 'alarm', search: { text: props.assetId, fields: ['asset_id'] }, limit: 1000 }
        : { type: 'alarm', parent: { type: 'datastream', id: props.streamId }, limit: 1000 },
  );
  if (!allowed) return null;
  // The search is a substring match: keep exactly this asset's.
  const items = alarms?.items.filter((a) => a.attributes.asset_id === props.assetId);
  return (
    <Stack gap="sm" data-testid="alarms-section">
      <Group justify="space-between">
        <Title order={2} size="h3">
          <Trans>Alarms</Trans>
        </Title>
        {props.streamId === undefined ? null : (
          <NewAlarmButton stream={{ assetId: props.assetId, streamId: props.streamId }} />
        )}
      </Group>
      <AlarmsTable
        alarms={items}
        caption={props.streamId === undefined ? t`The asset's alarms` : t`The data stream's alarms`}
        withAsset={false}
        withStream={props.streamId === undefined}
        empty={
          props.streamId === undefined ? (
            <Trans>This asset has no alarms. Add them on its data streams' pages.</Trans>
          ) : (
            <Trans>This data stream has no alarms.</Trans>
          )
        }
      />
    </Stack>
  );
}
