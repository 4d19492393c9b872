import { useState } from 'react';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { isolate } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { useCan } from '../../permissions/permissions';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { textOf } from './asset-texts';
import { devicePaths } from './paths';
import { ConfirmDelete } from '../../components/confirm-delete';

/**
 * "Delete asset" on the asset's page, an action of its own beside Edit Asset (issue 30 item 13),
 * with asset::delete: a confirmation naming the asset and counting what goes with it, then the
 * delete as a write of the outbox (at once on this device, sent when online) and the asset list.
 */
export function DeleteAssetButton(props: { readonly model: LocalModel<'asset'> }) {
  const { t, i18n } = useLingui();
  const can = useCan();
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const parent = { type: 'asset', id: props.model.id };
  const groups = useLiveQuery(asking ? { type: 'datastreamgroup', parent, limit: 1 } : null);
  const streams = useLiveQuery(
    asking
      ? { type: 'datastream', search: { text: props.model.id, fields: ['asset_id'] }, limit: 1 }
      : null,
  );
  const files = useLiveQuery(asking ? { type: 'file', parent, limit: 1 } : null);
  if (!can('asset::delete')) return null;
  // Isolated: the name is inside the confirmation's texts.
  const name = isolate(textOf(props.model.attributes, 'name'));
  const close = () => {
    setAsking(false);
    setError(null);
  };
  const remove = async () => {
    setBusy(true);
    const answer = await syncWorker().writes.remove('asset', props.model.id);
    setBusy(false);
    if ('error' in answer) {
      setError(translateServerText(i18n, callErrorText(answer.error)));
      return;
    }
    await navigate({ to: devicePaths.list() });
  };
  const groupCount = groups?.total ?? 0;
  const streamCount = streams?.total ?? 0;
  const fileCount = files?.total ?? 0;
  return (
    <>
      <Button
        variant="light"
        color="red"
        onClick={() => setAsking(true)}
        data-testid="delete-asset"
      >
        <Trans>Delete asset</Trans>
      </Button>
      <ConfirmDelete
        opened={asking}
        title={t`Delete ${name}?`}
        consequences={
          <Trans>
            Its <Plural value={groupCount} one="# stream group" other="# stream groups" />,{' '}
            <Plural value={streamCount} one="# data stream" other="# data streams" /> and{' '}
            <Plural value={fileCount} one="# file" other="# files" /> (photo and documents) are
            deleted with it. This cannot be undone.
          </Trans>
        }
        consequencesTestId="delete-asset-consequences"
        error={error}
        busy={busy}
        confirmLabel={<Trans>Delete {name}</Trans>}
        onClose={close}
        onConfirm={() => void remove()}
      />
    </>
  );
}
