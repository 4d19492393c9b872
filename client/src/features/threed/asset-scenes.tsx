import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Anchor,
  Button,
  Checkbox,
  Group,
  Modal,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import { sceneAttributesSchema, uuidv7, type ScenePlacement } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { ModalForm } from '../../components/modal-form';
import { Name } from '../../components/name';
import { usePageState } from '../../components/page-state';
import { useCan } from '../../permissions/permissions';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { ownerFields, ownerParent, type ThreedOwner } from './owner';
import { threedPaths } from './paths';

/*
 * An asset's scenes (issue 32 item 3): the list, each opening its scene, and a new scene that
 * places the chosen models of the asset side by side along X (moved in the scene's edit mode).
 */

/** A gap between models placed side by side, in metres. */
const GAP = 0.2;

/** The chosen models side by side along X, each by its bounds' width. */
export function sideBySide(models: readonly LocalModel<'threedmodel'>[]): ScenePlacement[] {
  let x = 0;
  return models.map((m) => {
    const b = m.attributes.bounds;
    const min = b?.min[0] ?? -0.5;
    const max = b?.max[0] ?? 0.5;
    const position: [number, number, number] = [Math.round((x - min) * 1000) / 1000, 0, 0];
    x += max - min + GAP;
    return { threedmodel_id: m.id, position, rotation: [0, 0, 0], flip_x: false, quality: 'auto' };
  });
}

export function AssetScenes(props: {
  readonly owner: ThreedOwner;
  readonly canEdit: boolean;
  readonly models: readonly LocalModel<'threedmodel'>[];
}) {
  const can = useCan();
  const scenes = useLiveQuery({ type: 'scene', parent: ownerParent(props.owner), limit: 200 });
  const [making, setMaking] = useState(false);
  const { t } = useLingui();
  const mayCreate = props.canEdit && can('scene::create');
  const items = scenes?.items ?? [];
  return (
    <Stack gap="xs" data-testid="asset-scenes">
      <Group justify="space-between">
        <Title order={2} size="h3">
          <Trans>Scenes</Trans>
        </Title>
        {mayCreate ? (
          <Button variant="light" onClick={() => setMaking(true)} data-testid="new-scene">
            <Trans>New scene</Trans>
          </Button>
        ) : null}
      </Group>
      {scenes === undefined ? null : items.length === 0 ? (
        <Text c="dimmed" size="sm" data-testid="no-scenes">
          <Trans>No scenes yet.</Trans>
        </Text>
      ) : (
        <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {items.map((scene) => (
            <li key={scene.id}>
              <Anchor
                component={Link}
                to={threedPaths.scene(props.owner, scene.id)}
                data-testid="scene-open"
              >
                <Name>{scene.attributes.name}</Name>
              </Anchor>
            </li>
          ))}
        </Stack>
      )}
      <Modal opened={making} onClose={() => setMaking(false)} title={t`New scene`}>
        {making ? (
          <NewSceneForm
            owner={props.owner}
            models={props.models}
            onCancel={() => setMaking(false)}
          />
        ) : null}
      </Modal>
    </Stack>
  );
}

function NewSceneForm(props: {
  readonly owner: ThreedOwner;
  readonly models: readonly LocalModel<'threedmodel'>[];
  readonly onCancel: () => void;
}) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<ReadonlySet<string>>(
    () => new Set(props.models.map((m) => m.id)),
  );
  const page = usePageState(['name', 'models']);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const picked = props.models.filter((m) => chosen.has(m.id));
    const checked = page.check(
      sceneAttributesSchema.safeParse({
        ...ownerFields(props.owner),
        name,
        models: sideBySide(picked),
      }),
    );
    if (checked === null) {
      document.getElementById('scene-name')?.focus();
      return;
    }
    setBusy(true);
    const id = uuidv7();
    const made = await syncWorker().writes.create('scene', checked, id);
    setBusy(false);
    if (page.took(made, 'none')) void navigate({ to: threedPaths.scene(props.owner, id) });
  };
  return (
    <ModalForm
      testId="new-scene-form"
      onSubmit={submit}
      onCancel={props.onCancel}
      submitLabel={<Trans>Create scene</Trans>}
      error={page.error}
      busy={busy}
    >
      <TextInput
        id="scene-name"
        label={t`Name`}
        required
        data-autofocus
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={page.fields.name}
      />
      {props.models.length === 0 ? (
        <Text size="sm" c="dimmed">
          {props.owner.kind === 'asset' ? (
            <Trans>The asset has no 3D models yet: upload one, then place it in the scene.</Trans>
          ) : (
            <Trans>
              The template has no 3D models yet: upload one, then place it in the scene.
            </Trans>
          )}
        </Text>
      ) : (
        <Checkbox.Group
          label={t`Models to place`}
          value={[...chosen]}
          onChange={(v) => setChosen(new Set(v))}
          error={page.fields.models}
        >
          <Stack gap={4} mt={4}>
            {props.models.map((m) => (
              <Checkbox key={m.id} value={m.id} label={m.attributes.name} />
            ))}
          </Stack>
        </Checkbox.Group>
      )}
    </ModalForm>
  );
}
