import {
  lazy,
  Suspense,
  useEffect,
  useState,
  type Dispatch,
  type ReactNode,
  type SetStateAction,
} from 'react';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Button, Modal, Text, TextInput } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import {
  assetAttributesSchema,
  bindTemplateMetadata,
  bindTemplateWidgets,
  isolate,
  uuidv7,
  type TemplateGroup,
} from '@plant/shared-schema';
import type { LocalModel, WorkerError } from '@plant/sync-worker/api';
import { ModalForm } from '../../components/modal-form';
import { usePageState } from '../../components/page-state';
import { useCan } from '../../permissions/permissions';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { devicePaths } from '../devices/paths';
import { streamCount } from './layout';

/* The note on the 3D models and scenes that come along: its text is the 3D area's. */
const TemplateThreedNote = lazy(() =>
  import('../threed/template-note').then((m) => ({ default: m.TemplateThreedNote })),
);

/** A template's 3D models, scenes and their hotspots (issue 32), as the local store has them. */
export interface TemplateThreed {
  readonly models: readonly LocalModel<'threedmodel'>[];
  readonly scenes: readonly LocalModel<'scene'>[];
  readonly hotspots: readonly LocalModel<'hotspot'>[];
}

/**
 * A new asset from a layout: the asset, then its groups in the layout's order, then each group's
 * streams with their settings, then a copy of each of the template's dashboards for the asset,
 * its widgets bound to the new streams (issue 31: `bindTemplateWidgets`), then its 3D models,
 * scenes and hotspots (issue 32: `copyTemplateThreed`). The ids are made here,
 * so each write names its parent before the parent has reached the server; every write lands in
 * the local store at once and is queued, so this works offline and the outbox sends them in this
 * order when the connection is back.
 */
export async function createAssetFromLayout(
  name: string,
  groups: readonly TemplateGroup[],
  dashboards: readonly LocalModel<'dashboard'>[] = [],
  threed: TemplateThreed = { models: [], scenes: [], hotspots: [] },
  /** The template it is made from: its tasks apply to the asset (issue 37). */
  templateId: string | null = null,
): Promise<{ readonly id: string } | { readonly error: WorkerError }> {
  const writes = syncWorker().writes;
  const assetId = uuidv7();
  const asset = await writes.create('asset', { name, template_id: templateId }, assetId);
  if ('error' in asset) return asset;
  const streamIds: string[][] = [];
  for (const [order, group] of groups.entries()) {
    const groupId = uuidv7();
    const ids: string[] = [];
    streamIds.push(ids);
    const made = await writes.create(
      'datastreamgroup',
      {
        asset_id: assetId,
        name: group.name,
        collapsible: group.collapsible,
        open_by_default: group.open_by_default,
        order,
      },
      groupId,
    );
    if ('error' in made) return made;
    for (const stream of group.streams) {
      const streamId = uuidv7();
      ids.push(streamId);
      const written = await writes.create(
        'datastream',
        { ...stream, asset_id: assetId, group_id: groupId },
        streamId,
      );
      if ('error' in written) return written;
    }
  }
  for (const dashboard of dashboards) {
    const { name: boardName, range, widgets } = dashboard.attributes;
    const copied = await writes.create(
      'dashboard',
      {
        name: boardName,
        asset_id: assetId,
        template_id: null,
        range,
        widgets: bindTemplateWidgets(widgets, streamIds),
      },
      uuidv7(),
    );
    if ('error' in copied) return copied;
  }
  const copied = await copyTemplateThreed(assetId, threed, streamIds);
  return copied ?? { id: assetId };
}

/**
 * The template's 3D models, scenes and hotspots for the new asset. Each processed model is made
 * as a copy (`copy_of`: the server copies its files and levels, nothing is uploaded or processed
 * again); each scene places the copies where the template's places the originals; each hotspot
 * keeps its point (in the model's own metres, so on the copy's surface too), its entries' stream
 * keys bound to the new streams. Answers the first refused write's error, else null.
 */
async function copyTemplateThreed(
  assetId: string,
  threed: TemplateThreed,
  streamIds: readonly (readonly string[])[],
): Promise<{ readonly error: WorkerError } | null> {
  const writes = syncWorker().writes;
  const copies = new Map<string, string>();
  for (const model of threed.models) {
    // One still being processed has nothing to copy yet.
    if (model.attributes.state !== 'ready') continue;
    const id = uuidv7();
    const made = await writes.create(
      'threedmodel',
      { asset_id: assetId, template_id: null, name: model.attributes.name, copy_of: model.id },
      id,
    );
    if ('error' in made) return made;
    copies.set(model.id, id);
  }
  for (const scene of threed.scenes) {
    const sceneId = uuidv7();
    const { name, camera, models } = scene.attributes;
    const made = await writes.create(
      'scene',
      {
        asset_id: assetId,
        template_id: null,
        name,
        camera,
        models: models.flatMap((placed) => {
          const id = copies.get(placed.threedmodel_id);
          return id === undefined ? [] : [{ ...placed, threedmodel_id: id }];
        }),
      },
      sceneId,
    );
    if ('error' in made) return made;
    for (const hotspot of threed.hotspots) {
      const h = hotspot.attributes;
      const modelId = copies.get(h.threedmodel_id);
      if (h.scene_id !== scene.id || modelId === undefined) continue;
      const spot = await writes.create(
        'hotspot',
        {
          scene_id: sceneId,
          asset_id: assetId,
          name: h.name,
          threedmodel_id: modelId,
          point: h.point,
          normal: h.normal,
          camera: h.camera,
          icon: h.icon,
          metadata: bindTemplateMetadata(h.metadata, streamIds),
          qr_description: h.qr_description,
        },
        uuidv7(),
      );
      if ('error' in spot) return spot;
    }
  }
  return null;
}

/** A template's 3D models, scenes and hotspots from the local store, for who may make scenes. */
function useTemplateThreed(templateId: string): {
  readonly threed: TemplateThreed;
  /** One reader per scene (a hook per scene), rendered with the form: they fill the hotspots. */
  readonly readers: ReactNode;
} {
  const can = useCan();
  const may = can('scene::create') && can('scene::view');
  const parent = { type: 'template', id: templateId } as const;
  const models = useLiveQuery(may ? { type: 'threedmodel', parent, limit: 200 } : null);
  const scenes = useLiveQuery(may ? { type: 'scene', parent, limit: 200 } : null);
  const [bySceneId, setBySceneId] = useState<
    Readonly<Record<string, readonly LocalModel<'hotspot'>[]>>
  >({});
  const sceneItems = scenes?.items ?? [];
  return {
    threed: {
      models: models?.items ?? [],
      scenes: sceneItems,
      hotspots: sceneItems.flatMap((s) => bySceneId[s.id] ?? []),
    },
    readers: sceneItems.map((s) => (
      <SceneHotspots key={s.id} sceneId={s.id} onRead={setBySceneId} />
    )),
  };
}

/** Reads one template scene's hotspots from the local store (renders nothing). */
function SceneHotspots(props: {
  readonly sceneId: string;
  readonly onRead: Dispatch<
    SetStateAction<Readonly<Record<string, readonly LocalModel<'hotspot'>[]>>>
  >;
}) {
  const { sceneId, onRead } = props;
  const read = useLiveQuery({
    type: 'hotspot',
    parent: { type: 'scene', id: sceneId },
    limit: 1000,
  });
  useEffect(() => {
    if (read !== undefined) onRead((known) => ({ ...known, [sceneId]: read.items }));
  }, [read, sceneId, onRead]);
  return null;
}

/** Whether the user may make assets with streams (what a template gives them). */
export function useMayCreateFromTemplate(): boolean {
  const can = useCan();
  return can('asset::create') && can('datastream::create');
}

/**
 * "Create asset" of a template (asset::create and datastream::create): the new asset's name in a
 * dialog (required, checked as the New asset form checks it), then its page opens.
 */
export function CreateFromTemplateButton(props: {
  readonly template: LocalModel<'template'>;
  readonly variant?: 'filled' | 'light' | 'subtle';
}) {
  const { t } = useLingui();
  const may = useMayCreateFromTemplate();
  const [open, setOpen] = useState(false);
  if (!may) return null;
  // Isolated: the name is inside the label's and the title's texts.
  const templateName = isolate(props.template.attributes.name);
  return (
    <>
      <Button
        variant={props.variant ?? 'filled'}
        onClick={() => setOpen(true)}
        data-testid="create-from-template"
        aria-label={t`Create asset from ${templateName}`}
      >
        <Trans>Create asset</Trans>
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t`New asset from ${templateName}`}>
        {open ? (
          <CreateFromTemplateForm template={props.template} onCancel={() => setOpen(false)} />
        ) : null}
      </Modal>
    </>
  );
}

function CreateFromTemplateForm(props: {
  readonly template: LocalModel<'template'>;
  readonly onCancel: () => void;
}) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const page = usePageState(['name']);
  const [busy, setBusy] = useState(false);
  const groups = props.template.attributes.groups;
  // The template's dashboards come along for who may make dashboards (issue 31).
  const can = useCan();
  const mayCopy = can('dashboard::create');
  const boards = useLiveQuery(mayCopy ? { type: 'dashboard', limit: 1000 } : null);
  const dashboards = (boards?.items ?? []).filter(
    (d) => d.attributes.template_id === props.template.id,
  );
  const { threed, readers } = useTemplateThreed(props.template.id);
  const groupTotal = groups.length;
  const streamTotal = streamCount(groups);
  const modelTotal = threed.models.filter((m) => m.attributes.state === 'ready').length;
  const sceneTotal = threed.scenes.length;

  const submit = async () => {
    // The name alone is checked here: its messages belong on the field.
    const checked = page.check(assetAttributesSchema.pick({ name: true }).safeParse({ name }));
    if (checked === null) {
      document.getElementById('template-asset-name')?.focus();
      return;
    }
    setBusy(true);
    const made = await createAssetFromLayout(
      checked.name,
      groups,
      dashboards,
      threed,
      props.template.id,
    );
    setBusy(false);
    if (!page.took('error' in made ? made : { data: made }) || 'error' in made) return;
    await navigate({ to: devicePaths.details(made.id) });
  };

  return (
    <ModalForm
      testId="create-from-template-form"
      onSubmit={submit}
      onCancel={props.onCancel}
      submitLabel={<Trans>Create asset</Trans>}
      error={page.error}
      busy={busy}
    >
      <Text size="sm" c="dimmed">
        <Trans>
          The new asset gets the template's{' '}
          <Plural value={groupTotal} one="# stream group" other="# stream groups" /> and{' '}
          <Plural value={streamTotal} one="# data stream" other="# data streams" /> with their
          settings. It starts without values.
        </Trans>
      </Text>
      {dashboards.length === 0 ? null : (
        <Text size="sm" c="dimmed" data-testid="template-dashboard-count">
          <Plural
            value={dashboards.length}
            one="And the template's dashboard."
            other="And the template's # dashboards."
          />
        </Text>
      )}
      {readers}
      {modelTotal === 0 && sceneTotal === 0 ? null : (
        <Suspense fallback={null}>
          <TemplateThreedNote models={modelTotal} scenes={sceneTotal} />
        </Suspense>
      )}
      <TextInput
        id="template-asset-name"
        label={t`Name of the new asset`}
        required
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={page.fields.name}
        data-autofocus
      />
    </ModalForm>
  );
}
