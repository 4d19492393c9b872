import './catalogues';
import { useEffect, useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Anchor,
  Box,
  Button,
  FileButton,
  Group,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { isolate, THREED_TEXTS, type Quality } from '@plant/shared-schema';
import type { LocalModel, UploadView } from '@plant/sync-worker/api';
import { ConfirmDelete } from '../../components/confirm-delete';
import { Name } from '../../components/name';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { useCan } from '../../permissions/permissions';
import { useUploads } from '../../sync/files';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { Link } from '@tanstack/react-router';
import { formatPercent } from '../devices/asset-files';
import { FileImage } from '../devices/file-image';
import { AssetScenes } from './asset-scenes';
import { fileOwnerOf, ownerFields, ownerOf, ownerParent, type ThreedOwner } from './owner';
import { threedPaths } from './paths';
import { isStepModel, MODEL_ENDINGS, modelUpload, type Picked } from './model-upload';

/*
 * An asset's 3D models (issue 32 item 1): each as a status tile (its files uploading, waiting,
 * processing with its progress, failed with the reason, or ready with its thumbnail and levels),
 * and the upload of a new one as one file, a folder (a glTF with its bin and textures needs it)
 * or a ZIP. The files go through the resumable file path (offline too: they wait here and land
 * once); the model names them by their paths in the folder.
 */

const MODEL_ACCEPT = MODEL_ENDINGS.map((e) => `.${e}`).join(',');

export function AssetModels(props: { readonly owner: ThreedOwner; readonly canEdit: boolean }) {
  const { i18n } = useLingui();
  const can = useCan();
  const parent = ownerParent(props.owner);
  const models = useLiveQuery(
    can('scene::view') ? { type: 'threedmodel', parent, limit: 200 } : null,
  );
  const files = useLiveQuery(can('scene::view') ? { type: 'file', parent, limit: 2000 } : null);
  const uploads = useUploads();
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const mayUpload = props.canEdit && can('scene::create');
  if (!can('scene::view')) return null;
  const fileById = new Map((files?.items ?? []).map((f) => [f.id, f]));

  const upload = async (picked: readonly File[]) => {
    const plan = modelUpload<File & Picked>(picked);
    if ('problem' in plan) {
      setProblem(translateServerText(i18n, plan.problem));
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const sources: { file_id: string; path: string }[] = [];
      for (const { file, path } of plan.files) {
        const added = await syncWorker().files.add(
          fileOwnerOf(props.owner),
          'model',
          file,
          file.name,
        );
        if ('error' in added) {
          setProblem(`${file.name}: ${translateServerText(i18n, callErrorText(added.error))}`);
          return;
        }
        sources.push({ file_id: added.data.id, path });
      }
      const made = await syncWorker().writes.create('threedmodel', {
        ...ownerFields(props.owner),
        name: plan.name,
        sources,
      });
      if ('error' in made) setProblem(translateServerText(i18n, callErrorText(made.error)));
    } finally {
      setBusy(false);
    }
  };

  const items = models?.items ?? [];
  return (
    <Stack gap="lg">
      <AssetScenes owner={props.owner} canEdit={props.canEdit} models={items} />
      <Stack gap="sm" data-testid="asset-models">
        <Group justify="space-between">
          <Title order={2} size="h3">
            <Trans>3D models</Trans>
          </Title>
          {mayUpload ? (
            <Group gap="xs">
              <FileButton
                onChange={(f) => {
                  if (f !== null) void upload([f]);
                }}
                accept={MODEL_ACCEPT}
              >
                {(button) => (
                  <Button
                    variant="light"
                    loading={busy}
                    {...button}
                    data-testid="upload-model-file"
                  >
                    <Trans>Upload a model file</Trans>
                  </Button>
                )}
              </FileButton>
              <FolderButton disabled={busy} onPick={(f) => void upload(f)} />
            </Group>
          ) : null}
        </Group>
        {mayUpload ? (
          <Text size="xs" c="dimmed">
            <Trans>
              FBX, glTF, GLB, STEP or a ZIP of them. A glTF with a separate bin or textures needs
              the folder upload.
            </Trans>
          </Text>
        ) : null}
        {problem === null ? null : (
          <Alert color="red" role="alert" data-testid="model-upload-problem">
            {problem}
          </Alert>
        )}
        {models === undefined ? null : items.length === 0 ? (
          <Text c="dimmed" size="sm" data-testid="no-models">
            <Trans>No 3D models yet.</Trans>
          </Text>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
            {items.map((model) => (
              <ModelTile
                key={model.id}
                model={model}
                files={fileById}
                uploads={uploads}
                canDelete={props.canEdit && can('scene::delete')}
              />
            ))}
          </SimpleGrid>
        )}
      </Stack>
    </Stack>
  );
}

/** The folder picker (a glTF with its bin and textures): the browser's directory input. */
function FolderButton(props: {
  readonly disabled: boolean;
  readonly onPick: (files: File[]) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    // No React prop for it: the attribute makes the picker choose a folder.
    input.current?.setAttribute('webkitdirectory', '');
  }, []);
  return (
    <>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        data-testid="upload-model-folder-input"
        onChange={(e) => {
          const files = [...(e.currentTarget.files ?? [])];
          e.currentTarget.value = '';
          if (files.length > 0) props.onPick(files);
        }}
      />
      <Button
        variant="light"
        disabled={props.disabled}
        onClick={() => input.current?.click()}
        data-testid="upload-model-folder"
      >
        <Trans>Upload a folder</Trans>
      </Button>
    </>
  );
}

/** The bytes-weighted share of a model's files on the server, and whether any upload failed. */
function sourcesProgress(
  model: LocalModel<'threedmodel'>,
  files: ReadonlyMap<string, LocalModel<'file'>>,
  uploads: Readonly<Record<string, UploadView>>,
): { share: number; uploading: boolean; waiting: boolean; failed: string | null } {
  let total = 0;
  let done = 0;
  let uploading = false;
  let waiting = false;
  let failed: string | null = null;
  for (const source of model.attributes.sources) {
    const file = files.get(source.file_id);
    const size = file?.attributes.size ?? 0;
    total += size;
    const upload = uploads[source.file_id];
    if (file?.attributes.state === 'ready' && upload === undefined) {
      done += size;
      continue;
    }
    uploading = true;
    if (upload?.state === 'failed') failed ??= upload.error;
    if (upload?.state === 'waiting') waiting = true;
    done += size * (upload?.progress ?? 0);
  }
  return { share: total === 0 ? 0 : done / total, uploading, waiting, failed };
}

const QUALITY_ORDER: readonly Quality[] = ['high', 'medium', 'low'];

/** One model's status tile (spec 001 §4: "3D processing has a status tile; detail not shown"). */
function ModelTile(props: {
  readonly model: LocalModel<'threedmodel'>;
  readonly files: ReadonlyMap<string, LocalModel<'file'>>;
  readonly uploads: Readonly<Record<string, UploadView>>;
  readonly canDelete: boolean;
}) {
  const { t, i18n } = useLingui();
  const { model } = props;
  const { name, state, progress, reason, levels, thumbnail_file_id: thumbnail } = model.attributes;
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const sent = sourcesProgress(model, props.files, props.uploads);
  const step = isStepModel(model.attributes.sources.map((s) => s.path));
  const qualityLabel: Record<Quality, string> = {
    high: t`High`,
    medium: t`Medium`,
    low: t`Low`,
  };
  const count = (n: number) => i18n.number(n);

  // What the tile says now, first what comes first: the files' upload, then the processing.
  let status: { text: string; share: number | null; tone: 'dimmed' | 'red' | 'green' };
  if (state === 'failed') {
    status = {
      text: translateServerText(i18n, reason ?? THREED_TEXTS.loadFailed),
      share: null,
      tone: 'red',
    };
  } else if (state === 'ready') {
    status = { text: t`Ready`, share: null, tone: 'green' };
  } else if (sent.failed !== null) {
    status = { text: translateServerText(i18n, sent.failed), share: null, tone: 'red' };
  } else if (sent.uploading) {
    const shown = formatPercent(i18n, sent.share);
    status = {
      text: sent.waiting ? t`Waiting to upload (${shown})` : t`Uploading (${shown})`,
      share: sent.share,
      tone: 'dimmed',
    };
  } else if (state === 'processing') {
    const shown = formatPercent(i18n, progress);
    status = { text: t`Processing (${shown})`, share: progress, tone: 'dimmed' };
  } else {
    status = { text: t`Waiting to be processed`, share: 0, tone: 'dimmed' };
  }

  const remove = async () => {
    const answer = await syncWorker().writes.remove('threedmodel', model.id);
    if ('error' in answer) {
      setError(translateServerText(i18n, callErrorText(answer.error)));
      return;
    }
    // Its files go with it: the upload and what the server made of it.
    const fileIds = [
      ...model.attributes.sources.map((s) => s.file_id),
      ...levels.map((l) => l.file_id),
      ...(thumbnail === null ? [] : [thumbnail]),
    ];
    for (const id of fileIds) if (props.files.has(id)) await syncWorker().writes.remove('file', id);
    setDeleting(false);
  };

  return (
    <Paper
      withBorder
      p="sm"
      radius="sm"
      data-testid="model-tile"
      data-id={model.id}
      data-state={state}
      aria-label={t`3D model ${isolate(name)}`}
      role="group"
    >
      <Group wrap="nowrap" align="flex-start" gap="sm">
        <Box w={96} h={96} style={{ flex: 'none' }}>
          {thumbnail !== null && state === 'ready' ? (
            <FileImage
              id={thumbnail}
              alt={t`Picture of ${isolate(name)}`}
              size={96}
              fallback={null}
            />
          ) : null}
        </Box>
        <Stack gap={4} miw={0} style={{ flex: 1 }}>
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {state === 'ready' ? (
              <Anchor
                component={Link}
                to={threedPaths.model(ownerOf(model.attributes), model.id)}
                data-testid="model-open"
              >
                <Name>{name}</Name>
              </Anchor>
            ) : (
              <Name>{name}</Name>
            )}
          </Text>
          <Text size="sm" c={status.tone} role="status" data-testid="model-status">
            {status.text}
          </Text>
          {status.share === null ? null : (
            <Progress
              value={status.share * 100}
              size="sm"
              aria-hidden
              data-testid="model-progress"
            />
          )}
          {step && state !== 'ready' ? (
            <Text size="xs" c="dimmed" data-testid="model-step-note">
              {translateServerText(i18n, THREED_TEXTS.stepPreview)}
            </Text>
          ) : null}
          {state === 'ready' ? (
            <Text size="xs" c="dimmed" data-testid="model-levels">
              {QUALITY_ORDER.flatMap((q) => {
                const level = levels.find((l) => l.quality === q);
                if (level === undefined) return [];
                const label = qualityLabel[q];
                const triangles = count(level.triangles);
                return [t`${label}: ${triangles} triangles`];
              }).join(' · ')}
            </Text>
          ) : null}
          {props.canDelete ? (
            <Group gap="xs">
              <Button
                size="compact-xs"
                variant="subtle"
                color="red"
                onClick={() => setDeleting(true)}
                data-testid="model-delete"
              >
                <Trans>Delete</Trans>
              </Button>
            </Group>
          ) : null}
        </Stack>
      </Group>
      <ConfirmDelete
        opened={deleting}
        title={t`Delete the 3D model ${isolate(name)}?`}
        consequences={<Trans>Its files and levels go with it. This cannot be undone.</Trans>}
        error={error}
        confirmLabel={<Trans>Delete 3D model</Trans>}
        confirmTestId="model-delete-confirm"
        onClose={() => setDeleting(false)}
        onConfirm={() => void remove()}
      />
    </Paper>
  );
}
