import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Button,
  Checkbox,
  Fieldset,
  Group,
  NumberInput,
  Select,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  isolate,
  SCENE_QUALITIES,
  sceneAttributesSchema,
  type ScenePlacement,
  type SceneQuality,
  type Vec3,
} from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { usePageState } from '../../components/page-state';
import { syncWorker } from '../../sync/worker';

/*
 * Edit mode's placement of the scene's models (issue 32 item 3, spec 001 §3): position in metres,
 * rotation in degrees, flip X axis and quality per model; models of the asset added or taken out.
 * One Save writes the whole list (the server checks each model is of the scene's asset).
 */

export function PlacementsEditor(props: {
  readonly scene: LocalModel<'scene'>;
  readonly models: readonly LocalModel<'threedmodel'>[];
}) {
  const { t } = useLingui();
  const [list, setList] = useState<ScenePlacement[]>(() =>
    props.scene.attributes.models.map((m) => ({ ...m })),
  );
  const [adding, setAdding] = useState<string | null>(null);
  const page = usePageState(['models']);
  const nameOf = new Map(props.models.map((m) => [m.id, m.attributes.name]));
  const unplaced = props.models.filter((m) => !list.some((p) => p.threedmodel_id === m.id));
  const qualityLabels: Record<SceneQuality, string> = {
    auto: t`Automatic`,
    low: t`Low`,
    medium: t`Medium`,
    high: t`High`,
  };

  const change = (index: number, patch: Partial<ScenePlacement>) =>
    setList((l) => l.map((p, i) => (i === index ? { ...p, ...patch } : p)));
  const axis = (v: Vec3, i: number, value: unknown): Vec3 => {
    const next: Vec3 = [...v];
    next[i] = typeof value === 'number' ? value : 0;
    return next;
  };

  const save = async () => {
    const checked = page.check(
      sceneAttributesSchema.pick({ models: true }).safeParse({ models: list }),
    );
    if (checked === null) return;
    page.took(await syncWorker().writes.update('scene', props.scene.id, checked), 'write');
  };

  return (
    <Stack gap="sm" data-testid="placements-editor">
      <Title order={2} size="h4">
        <Trans>Models in the scene</Trans>
      </Title>
      {list.length === 0 ? (
        <Text size="sm" c="dimmed">
          <Trans>No model is placed yet.</Trans>
        </Text>
      ) : null}
      {list.map((placement, index) => {
        const name = nameOf.get(placement.threedmodel_id) ?? t`Deleted model`;
        return (
          <Fieldset
            key={placement.threedmodel_id}
            legend={name}
            data-testid="placement"
            data-id={placement.threedmodel_id}
            p="xs"
          >
            <Stack gap={6}>
              <Group
                gap={4}
                wrap="nowrap"
                role="group"
                aria-label={t`Position of ${isolate(name)} in metres`}
              >
                {(['X', 'Y', 'Z'] as const).map((label, i) => (
                  <NumberInput
                    key={label}
                    size="xs"
                    label={t`${label} (m)`}
                    decimalScale={3}
                    step={0.1}
                    value={placement.position[i] ?? 0}
                    onChange={(v) => change(index, { position: axis(placement.position, i, v) })}
                    data-testid={`placement-position-${label.toLowerCase()}`}
                  />
                ))}
              </Group>
              <Group
                gap={4}
                wrap="nowrap"
                role="group"
                aria-label={t`Rotation of ${isolate(name)} in degrees`}
              >
                {(['X', 'Y', 'Z'] as const).map((label, i) => (
                  <NumberInput
                    key={label}
                    size="xs"
                    label={t`${label} (°)`}
                    min={-360}
                    max={360}
                    step={15}
                    value={placement.rotation[i] ?? 0}
                    onChange={(v) => change(index, { rotation: axis(placement.rotation, i, v) })}
                  />
                ))}
              </Group>
              <Group gap="sm" align="flex-end">
                <Checkbox
                  size="xs"
                  label={t`Flip X axis`}
                  checked={placement.flip_x}
                  onChange={(e) => change(index, { flip_x: e.currentTarget.checked })}
                />
                <Select
                  size="xs"
                  label={t`Quality`}
                  value={placement.quality}
                  allowDeselect={false}
                  onChange={(v) => {
                    if (v !== null) change(index, { quality: v });
                  }}
                  data={SCENE_QUALITIES.map((q) => ({ value: q, label: qualityLabels[q] }))}
                  w={130}
                />
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  onClick={() => setList((l) => l.filter((_, i) => i !== index))}
                >
                  <Trans>Take out</Trans>
                </Button>
              </Group>
            </Stack>
          </Fieldset>
        );
      })}
      {unplaced.length === 0 ? null : (
        <Group gap="xs" align="flex-end">
          <Select
            size="xs"
            label={t`Add a model`}
            value={adding}
            onChange={setAdding}
            data={unplaced.map((m) => ({ value: m.id, label: m.attributes.name }))}
            style={{ flex: 1 }}
            data-testid="placement-add-choice"
          />
          <Button
            size="xs"
            variant="light"
            onClick={() => {
              if (adding === null) return;
              setList((l) => [
                ...l,
                {
                  threedmodel_id: adding,
                  position: [0, 0, 0],
                  rotation: [0, 0, 0],
                  flip_x: false,
                  quality: 'auto',
                },
              ]);
              setAdding(null);
            }}
            data-testid="placement-add"
          >
            <Trans>Add</Trans>
          </Button>
        </Group>
      )}
      {page.error === null ? null : (
        <Alert color="red" role="alert">
          {page.error}
        </Alert>
      )}
      {page.fields.models === undefined ? null : (
        <Alert color="red" role="alert">
          {page.fields.models}
        </Alert>
      )}
      {page.saved === null ? null : (
        <Text size="sm" c="dimmed" role="status">
          {page.saved}
        </Text>
      )}
      <Group justify="flex-end">
        <Button size="xs" onClick={() => void save()} data-testid="placements-save">
          <Trans>Save the models</Trans>
        </Button>
      </Group>
    </Stack>
  );
}
