import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, FileButton, Group, Paper, Progress, Stack, Text, TextInput } from '@mantine/core';
import { proxy } from 'comlink';
import {
  apiPaths,
  DESIGN_IMAGE_TYPES,
  designImageAnswerSchema,
  designImageProblem,
} from '@plant/shared-schema';
import { BrandImage, rememberUploadedImage } from '../../components/brand-image';
import { translateServerText } from '../../i18n/server-texts';
import { syncWorker } from '../../sync/worker';
import classes from './accounts.module.css';

/** The file types the picker offers: those the server takes. */
const ACCEPT = Object.keys(DESIGN_IMAGE_TYPES).join(',');

type Upload =
  | { readonly kind: 'sending'; readonly name: string; readonly progress: number }
  | { readonly kind: 'failed'; readonly message: string; readonly file: File | null };

/**
 * An image of the account's design (issue 30 item 9): uploaded as a file (checked here by type
 * and size, and by the server by its bytes), with its progress, a preview of what the header
 * and the sign-in screen will show, and Remove; or an address typed (a path on this server).
 * The chosen file is shown from its own bytes on this page (`rememberUploadedImage`): the server
 * serves an image only once the stored design names it.
 */
export function DesignImage(props: {
  readonly accountId: string;
  readonly label: string;
  readonly value: string | null;
  readonly disabled: boolean;
  readonly error: string | undefined;
  readonly onChange: (text: string) => void;
}) {
  const { t, i18n } = useLingui();
  const { label, value } = props;
  const [upload, setUpload] = useState<Upload | null>(null);

  const send = async (file: File) => {
    const problem = designImageProblem(file);
    if (problem !== null) {
      setUpload({ kind: 'failed', message: translateServerText(i18n, problem), file: null });
      return;
    }
    setUpload({ kind: 'sending', name: file.name, progress: 0 });
    const answer = await syncWorker().http.upload(
      apiPaths.accountDesignImages(props.accountId),
      file,
      proxy((progress: number) =>
        setUpload((now) => (now?.kind === 'sending' ? { ...now, progress } : now)),
      ),
    );
    if ('error' in answer) {
      const { error } = answer;
      const said = error.fields?.file?.[0] ?? error.message;
      const message =
        error.kind === 'network'
          ? t`The image could not be sent: there is no connection to the server. Try again once this device is online.`
          : translateServerText(i18n, said);
      setUpload({ kind: 'failed', message, file });
      return;
    }
    const parsed = designImageAnswerSchema.safeParse(
      (answer.data as { data?: unknown } | null)?.data,
    );
    if (!parsed.success) {
      setUpload({ kind: 'failed', message: t`The server's answer was not understood.`, file });
      return;
    }
    rememberUploadedImage(parsed.data.url, file);
    setUpload(null);
    props.onChange(parsed.data.url);
  };

  const failed = upload?.kind === 'failed' ? upload : null;
  const retry = failed?.file ?? null;
  return (
    <Stack gap={4}>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <TextInput
          label={label}
          value={value ?? ''}
          disabled={props.disabled || upload?.kind === 'sending'}
          placeholder="/images/logo.png"
          onChange={(e) => props.onChange(e.currentTarget.value)}
          error={props.error}
          style={{ flex: 1 }}
        />
        <FileButton accept={ACCEPT} onChange={(file) => file !== null && void send(file)}>
          {(button) => (
            <Button
              {...button}
              variant="light"
              disabled={props.disabled || upload?.kind === 'sending'}
              aria-label={t`Upload ${label}`}
            >
              <Trans>Upload</Trans>
            </Button>
          )}
        </FileButton>
      </Group>
      {upload?.kind === 'sending' ? (
        <Stack gap={2}>
          <Text size="sm" aria-live="polite">
            <Trans>
              Sending {upload.name}: {Math.round(upload.progress * 100)} %
            </Trans>
          </Text>
          <Progress value={upload.progress * 100} aria-label={t`Upload of ${label}`} />
        </Stack>
      ) : null}
      {failed === null ? null : (
        <Group gap="xs">
          <Text size="sm" c="red" role="alert">
            {failed.message}
          </Text>
          {retry === null ? null : (
            <Button variant="subtle" size="xs" onClick={() => void send(retry)}>
              <Trans>Try again</Trans>
            </Button>
          )}
        </Group>
      )}
      {value === null ? null : (
        <Group gap="sm" align="center">
          <Paper withBorder p={4} data-testid="design-preview">
            <BrandImage
              src={value}
              alt={t`Preview: ${label}`}
              className={classes.preview}
              fallback={
                <Text size="sm" c="red" role="note">
                  <Trans>This image cannot be shown.</Trans>
                </Text>
              }
            />
          </Paper>
          <Button
            variant="subtle"
            color="red"
            size="xs"
            disabled={props.disabled}
            aria-label={t`Remove ${label}`}
            onClick={() => props.onChange('')}
          >
            <Trans>Remove</Trans>
          </Button>
        </Group>
      )}
    </Stack>
  );
}
