import { useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { I18n } from '@lingui/core';
import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  CloseButton,
  FileButton,
  Group,
  Progress,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  isolate,
  FILE_LIMITS,
  fileProblems,
  mediaTypeOf,
  type FileKind,
} from '@plant/shared-schema';
import type { LocalModel, UploadView } from '@plant/sync-worker/api';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { downloadFile } from '../../sync/download-file';
import { useKeptFiles, useUploads } from '../../sync/files';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { textOf } from './asset-texts';
import classes from './asset-files.module.css';
import { Name } from '../../components/name';
export { AssetPhoto, FileImage } from './file-image';

/**
 * Photos and documents of an asset (DESIGN.md §9): the bytes come from the worker (kept here,
 * waiting to upload, or read from the server with the user's access); uploads show their
 * progress in whole percent (spec 000 §9).
 */

/** Bytes as people read them: kB, MB, GB, in the chosen language. */
export function formatBytes(i18n: I18n, bytes: number): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return new Intl.NumberFormat(i18n.locale, {
    style: 'unit',
    unit: units[unit],
    unitDisplay: 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(value);
}

/** Upload progress: a percent with 0 decimals (spec 000 §9). */
export function formatPercent(i18n: I18n, progress: number): string {
  return new Intl.NumberFormat(i18n.locale, {
    style: 'percent',
    maximumFractionDigits: 0,
  }).format(Math.min(1, Math.max(0, progress)));
}

/** What is wrong with a file the user picked, translated; undefined when it may be uploaded. */
export function pickedFileProblem(i18n: I18n, kind: FileKind, file: File): string | undefined {
  const problems = fileProblems({
    kind,
    type: mediaTypeOf(file.name, file.type),
    size: file.size,
  });
  const first = problems.size ?? problems.type;
  return first === undefined ? undefined : translateServerText(i18n, first);
}

/** The media types a picker offers for a kind. */
export const acceptOf = (kind: FileKind) => FILE_LIMITS[kind].types.join(',');

/** A file's upload as a bar and a text, or nothing once it is on the server. */
export function UploadStatus(props: {
  readonly file: LocalModel<'file'>;
  readonly upload: UploadView | undefined;
}) {
  const { t, i18n } = useLingui();
  const { upload, file } = props;
  if (file.attributes.state === 'ready' && upload === undefined) return null;
  if (upload?.state === 'failed') {
    const reason = translateServerText(i18n, upload.error ?? '');
    return (
      <Text size="xs" c="red" role="status" data-testid="upload-state" data-state="failed">
        <Trans>Upload failed: {reason}</Trans>
      </Text>
    );
  }
  if (upload === undefined) {
    // Another device's upload, not moving now (or not told here).
    return (
      <Text size="xs" c="dimmed" role="status" data-testid="upload-state" data-state="elsewhere">
        <Trans>Not uploaded yet</Trans>
      </Text>
    );
  }
  const progress = upload.progress;
  const percent = formatPercent(i18n, progress);
  const waiting = upload.state === 'waiting';
  return (
    <Stack gap={2} data-testid="upload-state" data-state={waiting ? 'waiting' : 'uploading'}>
      <Progress
        value={progress * 100}
        size="sm"
        aria-label={t`Upload of ${isolate(textOf(file.attributes, 'name'))}`}
      />
      <Text size="xs" c="dimmed" role="status" data-testid="upload-percent">
        {waiting ? (
          <Trans>Waiting to upload ({percent})</Trans>
        ) : (
          <Trans>Uploading {percent}</Trans>
        )}
      </Text>
    </Stack>
  );
}

/**
 * The asset's documents: listed with size and upload state, downloaded (from this device when
 * kept), added and removed where the user may change the asset (useMayEdit on the page); and how much of the asset is kept for offline use.
 */
export function AssetDocuments(props: { readonly assetId: string; readonly canEdit: boolean }) {
  const { i18n } = useLingui();
  const files = useLiveQuery({
    type: 'file',
    parent: { type: 'asset', id: props.assetId },
    limit: 500,
  });
  const uploads = useUploads();
  const [problems, setProblems] = useState<readonly string[]>([]);
  const documents = (files?.items ?? []).filter((f) => f.attributes.kind === 'document');
  const version = (files?.items ?? []).map((f) => `${f.id}:${f.attributes.state}`).join(',');
  const kept = useKeptFiles(props.assetId, version);
  const resetRef = useRef<() => void>(null);

  const add = async (picked: File[]) => {
    const found: string[] = [];
    for (const file of picked) {
      const problem = pickedFileProblem(i18n, 'document', file);
      if (problem !== undefined) {
        found.push(`${file.name}: ${problem}`);
        continue;
      }
      const answer = await syncWorker().files.add(props.assetId, 'document', file, file.name);
      if ('error' in answer) {
        found.push(`${file.name}: ${translateServerText(i18n, callErrorText(answer.error))}`);
      }
    }
    setProblems(found);
    resetRef.current?.();
  };

  return (
    <Stack gap="sm" data-testid="asset-documents">
      <Group justify="space-between">
        <Title order={2} size="h3">
          <Trans>Documents</Trans>
        </Title>
        {props.canEdit ? (
          <FileButton
            onChange={(f) => void add(f)}
            multiple
            accept={acceptOf('document')}
            resetRef={resetRef}
          >
            {(button) => (
              <Button variant="light" {...button} data-testid="add-documents">
                <Trans>Add documents</Trans>
              </Button>
            )}
          </FileButton>
        ) : null}
      </Group>
      {problems.length === 0 ? null : (
        <Alert color="red" role="alert" data-testid="document-problems">
          <Stack gap={4}>
            {problems.map((p) => (
              <Text size="sm" key={p}>
                {p}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}
      {files === undefined ? null : documents.length === 0 ? (
        <Text c="dimmed" size="sm" data-testid="no-documents">
          {props.canEdit ? (
            <Trans>No documents yet. Add manuals, wiring diagrams or certificates.</Trans>
          ) : (
            <Trans>No documents yet.</Trans>
          )}
        </Text>
      ) : (
        <Stack gap="xs" component="ul" className={classes.plainList}>
          {documents.map((file) => (
            <DocumentRow
              key={file.id}
              file={file}
              upload={uploads[file.id]}
              canEdit={props.canEdit}
            />
          ))}
        </Stack>
      )}
      <OfflineNote assetId={props.assetId} kept={kept.kept} onFreed={kept.refresh} />
    </Stack>
  );
}

function DocumentRow(props: {
  readonly file: LocalModel<'file'>;
  readonly upload: UploadView | undefined;
  readonly canEdit: boolean;
}) {
  const { t, i18n } = useLingui();
  const { file } = props;
  const name = textOf(file.attributes, 'name');
  const [error, setError] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);

  const download = async () => {
    const failed = await downloadFile(file.id, name);
    setError(failed === null ? null : translateServerText(i18n, callErrorText(failed)));
  };
  const remove = async () => {
    const answer = await syncWorker().writes.remove('file', file.id);
    if ('error' in answer) setError(translateServerText(i18n, callErrorText(answer.error)));
  };

  return (
    <Box component="li" data-testid="document-row" data-id={file.id}>
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Box miw={0} style={{ flex: 1 }}>
          <Anchor
            component="button"
            type="button"
            onClick={() => void download()}
            style={{ overflowWrap: 'anywhere', textAlign: 'start' }}
            data-testid="document-download"
          >
            <Name>{name}</Name>
          </Anchor>
          <Text size="xs" c="dimmed">
            {formatBytes(i18n, file.attributes.size)}
          </Text>
          <UploadStatus file={file} upload={props.upload} />
          {error === null ? null : (
            <Text size="xs" c="red" role="alert">
              {error}
            </Text>
          )}
        </Box>
        {file.pending ? (
          <Badge color="orange" variant="light" size="sm">
            <Trans>Not synced yet</Trans>
          </Badge>
        ) : null}
        {props.canEdit ? (
          asking ? (
            <Group gap={4} wrap="nowrap">
              <Button
                size="xs"
                variant="default"
                onClick={() => setAsking(false)}
                // The button that asked is gone: the question takes the focus.
                autoFocus
              >
                <Trans>Keep it</Trans>
              </Button>
              <Button
                size="xs"
                color="red"
                onClick={() => void remove()}
                data-testid="document-delete-confirm"
              >
                <Trans>Delete</Trans>
              </Button>
            </Group>
          ) : (
            <CloseButton
              aria-label={t`Delete ${{ name: isolate(name) }}`}
              onClick={() => setAsking(true)}
              data-testid="document-delete"
            />
          )
        ) : null}
      </Group>
    </Box>
  );
}

/** How much of the asset this device keeps for offline use, and a way to free it. */
function OfflineNote(props: {
  readonly assetId: string;
  readonly kept: number | undefined;
  readonly onFreed: () => void;
}) {
  const { i18n } = useLingui();
  if (props.kept === undefined || props.kept === 0) return null;
  const size = formatBytes(i18n, props.kept);
  return (
    <Group gap="xs" data-testid="files-kept">
      <Text size="sm" c="dimmed">
        <Trans>Kept on this device for offline use: {size}</Trans>
      </Text>
      <Button
        size="compact-xs"
        variant="subtle"
        onClick={() => void syncWorker().files.free(props.assetId).then(props.onFreed)}
        data-testid="files-free"
      >
        <Trans>Remove from this device</Trans>
      </Button>
    </Group>
  );
}
