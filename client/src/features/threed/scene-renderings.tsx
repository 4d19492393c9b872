import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  isolate,
  renderingAttributesSchema,
  type RenderingState,
  type SceneCamera,
} from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { ConfirmDelete } from '../../components/confirm-delete';
import { Name } from '../../components/name';
import { usePageState } from '../../components/page-state';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { useMayEdit } from '../../permissions/may-edit';
import { useCan } from '../../permissions/permissions';
import { useLiveModel, useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { FileImage } from '../devices/file-image';

/*
 * A scene's renderings (issue 32 item 5): the view shown now, asked for at a size; the server
 * draws it in the background and it appears here when done (every tab follows its state); a
 * ready one can become the asset's picture.
 */

const SIZES = ['1280x720', '1920x1080', '1024x1024', '3840x2160'] as const;

export function SceneRenderings(props: {
  readonly scene: LocalModel<'scene'>;
  readonly mayCreate: boolean;
  /** The viewer's view now. */
  readonly currentView: () => SceneCamera | null;
}) {
  const { t } = useLingui();
  const { scene } = props;
  const renderings = useLiveQuery({
    type: 'rendering',
    parent: { type: 'scene', id: scene.id },
    limit: 200,
  });
  const items = renderings?.items ?? [];
  const [name, setName] = useState('');
  const [size, setSize] = useState<(typeof SIZES)[number]>('1280x720');
  const page = usePageState(['name', 'camera']);
  const [busy, setBusy] = useState(false);

  const make = async () => {
    const camera = props.currentView();
    const [width, height] = size.split('x').map(Number);
    const checked = page.check(
      renderingAttributesSchema.safeParse({
        scene_id: scene.id,
        asset_id: scene.attributes.asset_id,
        name: name.trim() === '' ? t`View ${items.length + 1}` : name,
        camera,
        width,
        height,
      }),
    );
    if (checked === null) return;
    setBusy(true);
    const made = await syncWorker().writes.create('rendering', checked);
    setBusy(false);
    if (page.took(made, 'none')) setName('');
  };

  return (
    <Stack gap="sm" data-testid="scene-renderings">
      <Title order={2} size="h4">
        <Trans>Renderings</Trans>
      </Title>
      {props.mayCreate ? (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void make();
          }}
        >
          <Group gap="xs" align="flex-end" wrap="wrap">
            <TextInput
              size="xs"
              label={t`Name`}
              placeholder={t`View ${items.length + 1}`}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={page.fields.name}
              data-testid="rendering-name"
            />
            <Select
              size="xs"
              label={t`Size`}
              value={size}
              allowDeselect={false}
              onChange={(v) => {
                const found = SIZES.find((s) => s === v);
                if (found !== undefined) setSize(found);
              }}
              data={SIZES.map((s) => ({ value: s, label: s.replace('x', ' × ') }))}
              w={130}
            />
            <Button size="xs" type="submit" loading={busy} data-testid="rendering-make">
              <Trans>Render this view</Trans>
            </Button>
          </Group>
          {page.error === null && page.fields.camera === undefined ? null : (
            <Alert color="red" role="alert" mt="xs">
              {page.error ?? t`The view is not ready yet: wait until the scene is drawn.`}
            </Alert>
          )}
        </form>
      ) : null}
      {renderings === undefined ? null : items.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="no-renderings">
          <Trans>No renderings yet.</Trans>
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {items.map((r) => (
            <RenderingTile key={r.id} rendering={r} />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

function RenderingTile(props: { readonly rendering: LocalModel<'rendering'> }) {
  const { t, i18n } = useLingui();
  const { rendering } = props;
  const {
    name,
    state,
    reason,
    file_id: fileId,
    width,
    height,
    asset_id: assetId,
  } = rendering.attributes;
  const can = useCan();
  // Only an asset's scene has renderings (the server refuses a template's).
  const asset = useLiveModel('asset', assetId ?? '');
  const mayEditAsset = useMayEdit('asset', asset.name === 'found' ? asset.model : null);
  const mayDelete = useMayEdit('rendering', rendering) && can('scene::delete');
  const isPicture = asset.name === 'found' && asset.model.attributes.photo === fileId;
  const [error, setError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const stateLabel: Record<RenderingState, string> = {
    waiting: t`Waiting`,
    rendering: t`Rendering…`,
    ready: t`Ready`,
    failed: t`Failed`,
  };
  const setPicture = async () => {
    if (assetId === null) return;
    const answer = await syncWorker().writes.update('asset', assetId, { photo: fileId });
    setError('error' in answer ? translateServerText(i18n, callErrorText(answer.error)) : null);
  };
  const remove = async () => {
    const answer = await syncWorker().writes.remove('rendering', rendering.id);
    if ('error' in answer) {
      setError(translateServerText(i18n, callErrorText(answer.error)));
      return;
    }
    // Its picture goes with it, unless the asset shows it.
    if (fileId !== null && !isPicture) await syncWorker().writes.remove('file', fileId);
    setDeleting(false);
  };
  return (
    <Paper
      withBorder
      p="xs"
      data-testid="rendering-tile"
      data-id={rendering.id}
      data-state={state}
      role="group"
      aria-label={t`Rendering ${isolate(name)}`}
    >
      <Stack gap={6}>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
            <Name>{name}</Name>
          </Text>
          <Badge
            size="sm"
            variant="light"
            color={state === 'ready' ? 'green' : state === 'failed' ? 'red' : 'gray'}
            data-testid="rendering-state"
          >
            {stateLabel[state]}
          </Badge>
        </Group>
        {state === 'ready' && fileId !== null ? (
          <FileImage id={fileId} alt={t`Rendering ${isolate(name)}`} size={160} fallback={null} />
        ) : null}
        {state === 'failed' && reason !== null ? (
          <Text size="xs" c="red" role="alert">
            {translateServerText(i18n, reason)}
          </Text>
        ) : null}
        <Text size="xs" c="dimmed">
          {i18n.number(width)} × {i18n.number(height)}
        </Text>
        <Group gap="xs">
          {state === 'ready' && mayEditAsset ? (
            isPicture ? (
              <Text size="xs" c="green" data-testid="rendering-is-picture">
                <Trans>The asset’s picture</Trans>
              </Text>
            ) : (
              <Button
                size="compact-xs"
                variant="light"
                onClick={() => void setPicture()}
                data-testid="rendering-set-picture"
              >
                <Trans>Use as the asset’s picture</Trans>
              </Button>
            )
          ) : null}
          {mayDelete ? (
            <Button
              size="compact-xs"
              variant="subtle"
              color="red"
              onClick={() => setDeleting(true)}
            >
              <Trans>Delete</Trans>
            </Button>
          ) : null}
        </Group>
        {error === null ? null : (
          <Text size="xs" c="red" role="alert">
            {error}
          </Text>
        )}
      </Stack>
      <ConfirmDelete
        opened={deleting}
        title={t`Delete the rendering ${isolate(name)}?`}
        consequences={<Trans>Its picture goes with it, unless it is the asset’s picture.</Trans>}
        error={error}
        confirmLabel={<Trans>Delete rendering</Trans>}
        confirmTestId="rendering-delete-confirm"
        onClose={() => setDeleting(false)}
        onConfirm={() => void remove()}
      />
    </Paper>
  );
}
