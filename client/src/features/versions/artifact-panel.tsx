import { useState } from 'react';
import type { I18n } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Button,
  Code,
  FileButton,
  Group,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import type { LocalModel } from '@plant/sync-worker/api';
import { Name } from '../../components/name';
import { translateServerText } from '../../i18n/server-texts';
import { useMayEdit } from '../../permissions/may-edit';
import { useUploads } from '../../sync/files';
import { useLiveModel } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';

/** A file's size in kB or MB. */
function sizeText(i18n: I18n, bytes: number): string {
  return bytes < 1_000_000
    ? `${i18n.number(bytes / 1_000, { maximumFractionDigits: 1 })} kB`
    : `${i18n.number(bytes / 1_000_000, { maximumFractionDigits: 1 })} MB`;
}

/**
 * A version's file (issue 35 item 1): uploaded while it is a draft (through the worker's files,
 * so it is kept and sent when the network allows, resumed after a cut), shown with its progress;
 * once released, its SHA-256 and the account's Ed25519 signature, which every gateway checks.
 */
export function ArtifactPanel({ release }: { readonly release: LocalModel<'release'> }) {
  const { t, i18n } = useLingui();
  const a = release.attributes;
  const editable = useMayEdit('release', release) && a.state === 'draft';
  const file = useLiveModel('file', a.artifact_file_id ?? '');
  const uploads = useUploads();
  const upload = a.artifact_file_id === null ? undefined : uploads[a.artifact_file_id];
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const pick = async (picked: File | null) => {
    if (picked === null) return;
    setError(null);
    setBusy(true);
    const worker = syncWorker();
    const added = await worker.files.add({ release: release.id }, 'artifact', picked, picked.name);
    if ('error' in added) {
      setBusy(false);
      const field = Object.values(added.error.fields ?? {})[0]?.[0];
      setError(translateServerText(i18n, field ?? added.error.message));
      return;
    }
    const set = await worker.writes.update('release', release.id, {
      artifact_file_id: added.data.id,
    });
    setBusy(false);
    if ('error' in set) setError(translateServerText(i18n, set.error.message));
  };

  return (
    <Paper withBorder p="md" radius="sm" data-testid="release-artifact">
      <Stack gap="sm">
        <Title order={2} size="h4">
          <Trans>File</Trans>
        </Title>
        {file.name === 'found' ? (
          <Group gap="sm">
            <Text size="sm" data-testid="release-artifact-name">
              <Name>{file.model.attributes.name}</Name>
            </Text>
            <Text size="sm" c="dimmed">
              {sizeText(i18n, file.model.attributes.size)}
            </Text>
            {file.model.attributes.state === 'ready' ? (
              <Text size="sm" c="green" data-testid="release-artifact-ready">
                <Trans>Stored</Trans>
              </Text>
            ) : (
              <Text size="sm" c="dimmed">
                {upload?.state === 'failed' ? (
                  <Trans>Upload failed</Trans>
                ) : upload?.state === 'waiting' ? (
                  <Trans>Waits for the network</Trans>
                ) : (
                  <Trans>Uploading…</Trans>
                )}
              </Text>
            )}
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            <Trans>No file yet: a version is released with its file.</Trans>
          </Text>
        )}
        {upload !== undefined &&
        file.name === 'found' &&
        file.model.attributes.state !== 'ready' ? (
          <Progress
            value={upload.progress * 100}
            aria-label={t`Upload`}
            data-testid="release-artifact-progress"
          />
        ) : null}
        {upload?.error === null || upload?.error === undefined ? null : (
          <Alert color="red">{translateServerText(i18n, upload.error)}</Alert>
        )}
        {editable ? (
          <FileButton onChange={(f) => void pick(f)}>
            {(button) => (
              <Button
                {...button}
                variant="default"
                loading={busy}
                w="fit-content"
                data-testid="release-artifact-pick"
              >
                {a.artifact_file_id === null ? (
                  <Trans>Upload file</Trans>
                ) : (
                  <Trans>Replace file</Trans>
                )}
              </Button>
            )}
          </FileButton>
        ) : null}
        {error === null ? null : (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        {a.artifact_sha256 === null ? null : (
          <SimpleGrid cols={{ base: 1, sm: 2 }} data-testid="release-signed">
            <Stack gap={2}>
              <Text size="xs" c="dimmed">
                <Trans>SHA-256</Trans>
              </Text>
              <Code style={{ wordBreak: 'break-all' }}>{a.artifact_sha256}</Code>
            </Stack>
            <Stack gap={2}>
              <Text size="xs" c="dimmed">
                <Trans>Signed with the account's release key</Trans>
              </Text>
              <Code style={{ wordBreak: 'break-all' }}>{a.key_id}</Code>
            </Stack>
          </SimpleGrid>
        )}
      </Stack>
    </Paper>
  );
}
