import './catalogues';
import { lazy, Suspense, useMemo, useRef, useState, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Anchor,
  Button,
  Grid,
  Group,
  Loader,
  Modal,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link, useParams, useSearch } from '@tanstack/react-router';
import {
  hotspotAttributesSchema,
  isolate,
  SCENE_TEXTS,
  type SceneAttributes,
} from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { EmptyState } from '../../components/empty-state';
import { Name } from '../../components/name';
import { usePageState } from '../../components/page-state';
import { translateServerText } from '../../i18n/server-texts';
import { useMayEdit } from '../../permissions/may-edit';
import { useCan } from '../../permissions/permissions';
import { useLiveModel, useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { HotspotDetails } from './hotspot-details';
import { HotspotGlyph } from './hotspot-icons';
import { HotspotMarker, firstStream, StreamValue } from './hotspot-parts';
import {
  ownerOf,
  ownerParent,
  sameOwner,
  SceneOwnerContext,
  templateStreamChoices,
  useSceneOwner,
  type ThreedOwner,
} from './owner';
import { threedPaths } from './paths';
import { SceneRenderings } from './scene-renderings';
import type { PickedPoint, ViewerHandle } from './viewer/scene-viewer';

/* three and @react-three/fiber come with the viewer's chunk, on the 3D routes only. */
/* Edit mode's placement form loads with edit mode. */
const PlacementsEditor = lazy(() =>
  import('./placements-editor').then((m) => ({ default: m.PlacementsEditor })),
);
const SceneViewer = lazy(() =>
  import('./viewer/scene-viewer').then((m) => ({ default: m.SceneViewer })),
);

/**
 * /app/devices/{id}/scene/{sceneid} (and scene/v3/…), and a template's /app/templates/{id}/
 * scene/{sceneid}: a scene of an asset or a template (issue 32 items 3 and 4), from the local
 * store (offline too). View mode: the models with their hotspots, a hotspot's data and QR code;
 * edit mode (scene::edit on the asset): the models' placement, the start view, and hotspots placed
 * by a click on a model ('A hotspot must lie on a model.' beside them).
 */
export function ScenePage(props: { readonly of?: ThreedOwner['kind'] }) {
  const { t } = useLingui();
  const { id = '', sceneid = '' }: { id?: string; sceneid?: string } = useParams({
    strict: false,
  });
  const owner: ThreedOwner = { kind: props.of ?? 'asset', id };
  const state = useLiveModel('scene', sceneid);
  // Read beside the scene (its owner is the route's), not after it: one worker round trip less
  // before the viewer starts.
  const models = useLiveQuery({ type: 'threedmodel', parent: ownerParent(owner), limit: 200 });
  if (state.name === 'loading') return <Loader role="status" aria-label={t`Loading the scene…`} />;
  if (state.name !== 'found' || !sameOwner(ownerOf(state.model.attributes), owner)) {
    return (
      <EmptyState title={<Trans>There is no such scene here</Trans>}>
        <Anchor component={Link} to={threedPaths.owner(owner)}>
          {owner.kind === 'asset' ? (
            <Trans>Back to the asset</Trans>
          ) : (
            <Trans>Back to the template</Trans>
          )}
        </Anchor>
      </EmptyState>
    );
  }
  const screen = <SceneScreen scene={state.model} models={models?.items} />;
  return owner.kind === 'template' ? (
    <TemplateSceneOwner id={id}>{screen}</TemplateSceneOwner>
  ) : (
    <AssetSceneOwner id={id}>{screen}</AssetSceneOwner>
  );
}

const NO_STREAMS: ReadonlyMap<string, string> = new Map();

/** The parts of an asset's scene learn its owner. */
function AssetSceneOwner(props: { readonly id: string; readonly children: ReactNode }) {
  const { id } = props;
  const value = useMemo(
    () => ({ owner: { kind: 'asset', id } as const, templateStreams: NO_STREAMS }),
    [id],
  );
  return <SceneOwnerContext.Provider value={value}>{props.children}</SceneOwnerContext.Provider>;
}

/** The parts of a template's scene learn its owner and the template's streams by key. */
function TemplateSceneOwner(props: { readonly id: string; readonly children: ReactNode }) {
  const { id } = props;
  const template = useLiveModel('template', id);
  const groups = template.name === 'found' ? template.model.attributes.groups : undefined;
  const value = useMemo(
    () => ({
      owner: { kind: 'template', id } as const,
      templateStreams: new Map(templateStreamChoices(groups ?? []).map((c) => [c.value, c.label])),
    }),
    [id, groups],
  );
  return <SceneOwnerContext.Provider value={value}>{props.children}</SceneOwnerContext.Provider>;
}

/** /app/templates/{id}/scene/{sceneid}: a template's scene. */
export function TemplateScenePage() {
  return <ScenePage of="template" />;
}

function SceneScreen(props: {
  readonly scene: LocalModel<'scene'>;
  /** The owner's 3D models; undefined while read. */
  readonly models: readonly LocalModel<'threedmodel'>[] | undefined;
}) {
  const { t, i18n } = useLingui();
  const { scene } = props;
  const { name } = scene.attributes;
  const can = useCan();
  // A template's scene is changed by who may edit the template too (the server asks the same).
  const ofTemplate = useSceneOwner()?.owner.kind === 'template';
  const mayEdit = useMayEdit('scene', scene) && (!ofTemplate || can('template::edit'));
  const mayCreate = mayEdit && can('scene::create');
  const search: { hotspot?: unknown } = useSearch({ strict: false });
  const [mode, setMode] = useState<'view' | 'edit'>('view');
  const editing = mode === 'edit' && mayEdit;
  const [active, setActive] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(
    typeof search.hotspot === 'string' ? search.hotspot : null,
  );
  const [jump, setJump] = useState<{
    key: number;
    camera: SceneAttributes['camera'] & object;
  } | null>(null);
  const [picked, setPicked] = useState<PickedPoint | null>(null);
  const [refused, setRefused] = useState(false);
  const [saved, setSaved] = useState(false);
  const handle = useRef<ViewerHandle | null>(null);

  const { models } = props;
  const hotspotsRead = useLiveQuery({
    type: 'hotspot',
    parent: { type: 'scene', id: scene.id },
    limit: 500,
  });
  const byId = useMemo(() => new Map((models ?? []).map((m) => [m.id, m])), [models]);
  const placements = scene.attributes.models.flatMap((p) => {
    const model = byId.get(p.threedmodel_id);
    if (model?.attributes.state !== 'ready') return [];
    return [
      {
        id: model.id,
        name: model.attributes.name,
        levels: model.attributes.levels,
        position: p.position,
        rotation: p.rotation,
        flipX: p.flip_x,
        quality: p.quality,
      },
    ];
  });
  const placedIds = new Set(placements.map((p) => p.id));
  const hotspots = (hotspotsRead?.items ?? []).filter((h) =>
    placedIds.has(h.attributes.threedmodel_id),
  );
  const views = hotspots.map((h) => ({
    id: h.id,
    threedmodelId: h.attributes.threedmodel_id,
    point: h.attributes.point,
    normal: h.attributes.normal,
    label: t`Hotspot ${isolate(h.attributes.name)}`,
    content: <HotspotMarker hotspot={h} selected={selected === h.id} />,
  }));
  const selectedHotspot = hotspots.find((h) => h.id === selected) ?? null;

  /** Goes to a hotspot's view: its own, else looking at its point along its surface's normal. */
  const goTo = (hotspot: LocalModel<'hotspot'>) => {
    setSelected(hotspot.id);
    const own = hotspot.attributes.camera;
    if (own !== null) {
      setJump((j) => ({ key: (j?.key ?? 0) + 1, camera: own }));
      return;
    }
    const at = handle.current?.worldPoint(
      hotspot.attributes.threedmodel_id,
      hotspot.attributes.point,
    );
    const now = handle.current?.currentCamera();
    if (at === null || at === undefined || now === null || now === undefined) return;
    const distance = Math.max(
      0.5,
      Math.hypot(...now.position.map((v, i) => v - (now.target[i] ?? 0))) * 0.6,
    );
    const [nx, ny, nz] = hotspot.attributes.normal;
    setJump((j) => ({
      key: (j?.key ?? 0) + 1,
      camera: {
        target: at,
        position: [at[0] + nx * distance, at[1] + ny * distance, at[2] + nz * distance],
      },
    }));
  };

  const onPick = (point: PickedPoint | null) => {
    if (!mayCreate) return;
    if (point === null) {
      setRefused(true);
      return;
    }
    setRefused(false);
    notifications.show({
      id: 'hotspot-placed',
      color: 'green',
      message: translateServerText(i18n, SCENE_TEXTS.placed),
    });
    setPicked(point);
  };

  const saveView = async () => {
    const camera = handle.current?.currentCamera() ?? null;
    if (camera === null) return;
    const answer = await syncWorker().writes.update('scene', scene.id, { camera });
    setSaved(!('error' in answer));
  };

  return (
    <Stack gap="md" data-testid="scene-page" data-mode={editing ? 'edit' : 'view'}>
      <Group justify="space-between" align="flex-end">
        <Title order={1}>
          <Name>{name}</Name>
        </Title>
        {mayEdit ? (
          <SegmentedControl
            value={mode}
            onChange={(v) => {
              setMode(v === 'edit' ? 'edit' : 'view');
              setRefused(false);
            }}
            aria-label={t`Mode`}
            data-testid="scene-mode"
            data={[
              { value: 'view', label: t`View` },
              { value: 'edit', label: t`Edit` },
            ]}
          />
        ) : null}
      </Group>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack gap="xs">
            {editing && mayCreate ? (
              <Text size="sm" c="dimmed" data-testid="scene-pick-hint">
                <Trans>Click on a model to place a hotspot there.</Trans>
              </Text>
            ) : null}
            {refused ? (
              <Alert color="red" role="alert" data-testid="hotspot-refused">
                {translateServerText(i18n, SCENE_TEXTS.offModel)}
              </Alert>
            ) : null}
            {models === undefined ? (
              <Loader role="status" aria-label={t`Loading the scene…`} />
            ) : (
              <Suspense fallback={<Loader role="status" aria-label={t`Loading the viewer…`} />}>
                <SceneViewer
                  name={name}
                  placements={placements}
                  camera={scene.attributes.camera}
                  hotspots={views}
                  selectedHotspot={selected}
                  onSelectHotspot={(hid) => {
                    const h = hotspots.find((x) => x.id === hid);
                    if (h !== undefined) setSelected(h.id);
                  }}
                  activeModel={active}
                  picking={editing && mayCreate}
                  onPick={onPick}
                  jump={jump}
                  handle={handle}
                />
              </Suspense>
            )}
            {editing ? (
              <Group gap="xs">
                <Button
                  variant="default"
                  size="xs"
                  onClick={() => void saveView()}
                  data-testid="scene-save-view"
                >
                  <Trans>Open the scene with this view</Trans>
                </Button>
                {saved ? (
                  <Text size="xs" c="dimmed" role="status">
                    <Trans>View saved.</Trans>
                  </Text>
                ) : null}
              </Group>
            ) : null}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Stack gap="md">
            {placements.length > 1 ? (
              <ActiveModelChoice placements={placements} active={active} onChange={setActive} />
            ) : null}
            <HotspotList hotspots={hotspots} selected={selected} onSelect={goTo} />
            {selectedHotspot === null ? null : (
              <HotspotDetails
                key={selectedHotspot.id}
                hotspot={selectedHotspot}
                editing={editing}
                useView={() => handle.current?.currentCamera() ?? null}
                onGoTo={() => goTo(selectedHotspot)}
                onDeleted={() => setSelected(null)}
              />
            )}
            {editing ? (
              <Suspense
                fallback={<Loader size="sm" role="status" aria-label={t`Loading the form…`} />}
              >
                <PlacementsEditor scene={scene} models={models ?? []} />
              </Suspense>
            ) : null}
            {/* A template's scene has no renderings: each asset made from it renders its own. */}
            {scene.attributes.asset_id === null ? null : (
              <SceneRenderings
                scene={scene}
                mayCreate={mayCreate}
                currentView={() => handle.current?.currentCamera() ?? null}
              />
            )}
          </Stack>
        </Grid.Col>
      </Grid>
      {picked === null ? null : (
        <NameHotspot
          scene={scene}
          picked={picked}
          onClose={(madeId) => {
            setPicked(null);
            if (madeId !== null) setSelected(madeId);
          }}
        />
      )}
    </Stack>
  );
}

/** Which model to orbit (orbit mode), or none (free mode), when the scene places several. */
function ActiveModelChoice(props: {
  readonly placements: readonly { readonly id: string; readonly name: string }[];
  readonly active: string | null;
  readonly onChange: (id: string | null) => void;
}) {
  const { t } = useLingui();
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600} id="scene-active-label">
        <Trans>Navigation</Trans>
      </Text>
      <SegmentedControl
        size="xs"
        orientation="vertical"
        fullWidth
        aria-labelledby="scene-active-label"
        data-testid="scene-active-model"
        value={props.active ?? ''}
        onChange={(v) => props.onChange(v === '' ? null : v)}
        data={[
          { value: '', label: t`Free (all models)` },
          ...props.placements.map((p) => ({ value: p.id, label: t`Orbit ${isolate(p.name)}` })),
        ]}
      />
    </Stack>
  );
}

function HotspotList(props: {
  readonly hotspots: readonly LocalModel<'hotspot'>[];
  readonly selected: string | null;
  readonly onSelect: (hotspot: LocalModel<'hotspot'>) => void;
}) {
  return (
    <Stack gap={4} data-testid="hotspot-list">
      <Title order={2} size="h4">
        <Trans>Hotspots</Trans>
      </Title>
      {props.hotspots.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="no-hotspots">
          <Trans>No hotspots yet.</Trans>
        </Text>
      ) : (
        <Stack gap={2} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {props.hotspots.map((h) => {
            const stream = firstStream(h.attributes.metadata);
            return (
              <li key={h.id}>
                <UnstyledButton
                  onClick={() => props.onSelect(h)}
                  data-testid="hotspot-item"
                  data-id={h.id}
                  aria-current={props.selected === h.id ? 'true' : undefined}
                  p={6}
                  w="100%"
                  style={{
                    borderRadius: 4,
                    background:
                      props.selected === h.id ? 'var(--mantine-color-blue-light)' : undefined,
                  }}
                >
                  <Group gap="xs" wrap="nowrap">
                    <HotspotGlyph icon={h.attributes.icon} />
                    <Text size="sm" style={{ flex: 1, overflowWrap: 'anywhere' }}>
                      <Name>{h.attributes.name}</Name>
                    </Text>
                    {stream === null ? null : <StreamValue id={stream} />}
                  </Group>
                </UnstyledButton>
              </li>
            );
          })}
        </Stack>
      )}
    </Stack>
  );
}

/** The name prompt after a point was picked (spec 001 §4): a name, then Save. */
function NameHotspot(props: {
  readonly scene: LocalModel<'scene'>;
  readonly picked: PickedPoint;
  readonly onClose: (madeId: string | null) => void;
}) {
  const { t } = useLingui();
  const [name, setName] = useState('');
  const page = usePageState(['name']);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    const checked = page.check(hotspotAttributesSchema.pick({ name: true }).safeParse({ name }));
    if (checked === null) {
      document.getElementById('hotspot-name')?.focus();
      return;
    }
    setBusy(true);
    const made = await syncWorker().writes.create('hotspot', {
      scene_id: props.scene.id,
      asset_id: props.scene.attributes.asset_id,
      name: checked.name,
      threedmodel_id: props.picked.threedmodelId,
      point: props.picked.point,
      normal: props.picked.normal,
    });
    setBusy(false);
    if (page.took(made, 'none') && !('error' in made)) props.onClose(made.data.id);
  };
  return (
    <Modal opened onClose={() => props.onClose(null)} title={t`New hotspot`}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
        data-testid="hotspot-name-form"
      >
        <Stack gap="sm">
          <TextInput
            id="hotspot-name"
            label={t`Name`}
            required
            data-autofocus
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={page.fields.name}
          />
          {page.error === null ? null : (
            <Alert color="red" role="alert">
              {page.error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => props.onClose(null)}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" loading={busy} data-testid="hotspot-save">
              <Trans>Save</Trans>
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
