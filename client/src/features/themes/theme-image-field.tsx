import { useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, FileButton, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { FILE_LIMITS, themeImagePath } from '@plant/shared-schema';
import { BrandImage, rememberUploadedImage } from '../../components/brand-image';
import { translateServerText } from '../../i18n/server-texts';
import { useUploads } from '../../sync/files';
import { syncWorker } from '../../sync/worker';
import classes from './themes.module.css';

/** The file types the picker offers: those a theme's image may be. */
const ACCEPT = FILE_LIMITS.image.types.join(',');

/**
 * One image of a theme (issue 36 item 1: login image, logos and their dark variants): a file of
 * the theme uploaded through the worker's files (DESIGN.md §9: kept on this device and sent when
 * the network allows, resumed after a cut), shown at once from its own bytes, with its progress;
 * the server serves it to anyone once the saved theme names it. Remove leaves the field empty.
 */
export function ThemeImageField(props: {
  readonly themeId: string;
  readonly label: string;
  readonly value: string | null;
  readonly disabled: boolean;
  readonly error: string | undefined;
  readonly testId: string;
  readonly onChange: (fileId: string | null) => void;
  /** A chosen image starts or ends being kept on this device (hashed and stored: the form waits). */
  readonly onAdding: (started: boolean) => void;
}) {
  const { t, i18n } = useLingui();
  const { label, value } = props;
  const uploads = useUploads();
  const upload = value === null ? undefined : uploads[value];
  const [problem, setProblem] = useState<string | null>(null);
  // Images being kept on this device; the field takes only the user's last choice (a pick or
  // Remove), whichever add finishes last.
  const [keeping, setKeeping] = useState(0);
  const choice = useRef(0);
  const pick = async (file: File | null) => {
    if (file === null) return;
    const mine = ++choice.current;
    setProblem(null);
    props.onAdding(true);
    setKeeping((n) => n + 1);
    try {
      const added = await syncWorker().files.add(
        { theme: props.themeId },
        'image',
        file,
        file.name,
      );
      if (mine !== choice.current) return;
      if ('error' in added) {
        const field = Object.values(added.error.fields ?? {})[0]?.[0];
        setProblem(translateServerText(i18n, field ?? added.error.message));
        return;
      }
      rememberUploadedImage(themeImagePath(added.data.id), file);
      // The field is set before the form may save again.
      props.onChange(added.data.id);
    } finally {
      props.onAdding(false);
      setKeeping((n) => n - 1);
    }
  };
  const shown = problem ?? props.error ?? null;
  return (
    <Stack gap={4} data-testid={props.testId}>
      <Text size="sm" fw={500} component="div" id={`${props.testId}-label`}>
        {label}
      </Text>
      <Group gap="sm" align="center">
        <Paper withBorder p={4} className={classes.imageBox}>
          {value === null ? (
            <Text size="xs" c="dimmed">
              <Trans>None</Trans>
            </Text>
          ) : (
            <BrandImage
              src={themeImagePath(value)}
              alt={t`Preview: ${label}`}
              className={classes.image}
              fallback={
                <Text size="xs" c="red" role="note">
                  <Trans>This image cannot be shown.</Trans>
                </Text>
              }
            />
          )}
        </Paper>
        <FileButton accept={ACCEPT} onChange={(file) => void pick(file)}>
          {(button) => (
            <Button
              {...button}
              variant="light"
              size="xs"
              disabled={props.disabled}
              aria-label={t`Upload ${label}`}
              aria-describedby={`${props.testId}-label`}
            >
              {value === null ? <Trans>Upload</Trans> : <Trans>Replace</Trans>}
            </Button>
          )}
        </FileButton>
        {value === null ? null : (
          <Button
            variant="subtle"
            color="red"
            size="xs"
            disabled={props.disabled}
            aria-label={t`Remove ${label}`}
            onClick={() => {
              choice.current++;
              props.onChange(null);
            }}
          >
            <Trans>Remove</Trans>
          </Button>
        )}
        {/* Always here, so a screen reader hears it fill: why the form's Save waits. */}
        <Text size="xs" c="dimmed" aria-live="polite" data-testid={`${props.testId}-keeping`}>
          {keeping > 0 ? <Trans>Keeping the image on this device…</Trans> : null}
        </Text>
      </Group>
      {upload === undefined ? null : (
        <Stack gap={2}>
          <Text size="xs" c="dimmed" aria-live="polite">
            {upload.state === 'waiting' ? (
              <Trans>Waits for the network</Trans>
            ) : upload.state === 'failed' ? (
              <Trans>Upload failed</Trans>
            ) : (
              <Trans>Uploading {Math.round(upload.progress * 100)} %</Trans>
            )}
          </Text>
          <Progress value={upload.progress * 100} size="sm" aria-label={t`Upload of ${label}`} />
        </Stack>
      )}
      {upload?.error === null || upload?.error === undefined ? null : (
        <Text size="sm" c="red" role="alert">
          {translateServerText(i18n, upload.error)}
        </Text>
      )}
      {shown === null ? null : (
        <Text size="sm" c="red" role="alert">
          {shown}
        </Text>
      )}
    </Stack>
  );
}
