import { useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { I18n } from '@lingui/core';
import { Button, FileButton, Group, Image, Skeleton, Stack, Text } from '@mantine/core';
import { FILE_LIMITS, fileProblems, mediaTypeOf } from '@plant/shared-schema';
import type { LocalModel, WorkerError } from '@plant/sync-worker/api';
import { translateServerText } from '../../i18n/server-texts';
import { useFileUrl } from '../../sync/files';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';

/*
 * A ticket's picture (issue 34 item 1): a photo file under the ticket (the file's ticket_id),
 * kept and uploaded by the worker like an asset's photo, so one taken offline shows at once, after
 * a reload, and lands once. Who may add one is the server's rule too: the reporter while the
 * ticket is new, a feedback admin.
 */

/** What is wrong with a picked photo, translated; undefined when it may be uploaded. */
export function photoProblem(i18n: I18n, file: File): string | undefined {
  const problems = fileProblems({
    kind: 'photo',
    type: mediaTypeOf(file.name, file.type),
    size: file.size,
  });
  const first = problems.size ?? problems.type;
  return first === undefined ? undefined : translateServerText(i18n, first);
}

/** Adds the photo to the ticket in the worker (uploaded when the network allows). */
export async function addTicketPhoto(ticketId: string, file: File): Promise<WorkerError | null> {
  const added = await syncWorker().files.add({ ticket: ticketId }, 'photo', file, file.name);
  return 'error' in added ? added.error : null;
}

const ACCEPT = FILE_LIMITS.photo.types.join(',');

/** The form's photo: a button to pick one (the tablet's camera too), its preview and its name. */
export function PhotoPick(props: {
  readonly id: string;
  readonly file: File | null;
  readonly error: string | undefined;
  readonly onChange: (file: File | null) => void;
}) {
  const { t } = useLingui();
  const [preview, setPreview] = useState<{ file: File; url: string } | null>(null);
  useEffect(() => {
    if (props.file === null) return;
    const url = URL.createObjectURL(props.file);
    setPreview({ file: props.file, url });
    return () => URL.revokeObjectURL(url);
  }, [props.file]);
  const shown = props.file !== null && preview?.file === props.file ? preview.url : null;
  const errorId = `${props.id}-error`;
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} component="label" htmlFor={props.id}>
        <Trans>Photo (optional)</Trans>
      </Text>
      <Group gap="sm" align="center">
        {shown === null ? null : (
          <Image src={shown} alt={t`The chosen photo`} w={72} h={72} fit="cover" radius="sm" />
        )}
        <FileButton onChange={(file) => file !== null && props.onChange(file)} accept={ACCEPT}>
          {(button) => (
            <Button
              {...button}
              id={props.id}
              variant="default"
              size="compact-sm"
              aria-describedby={props.error === undefined ? undefined : errorId}
              data-testid="ticket-photo-pick"
            >
              {props.file === null ? <Trans>Choose a photo</Trans> : <Trans>Choose another</Trans>}
            </Button>
          )}
        </FileButton>
        {props.file === null ? null : (
          <Button
            variant="subtle"
            color="red"
            size="compact-sm"
            onClick={() => props.onChange(null)}
          >
            <Trans>Remove photo</Trans>
          </Button>
        )}
      </Group>
      {props.file === null ? null : (
        <Text size="xs" c="dimmed">
          {props.file.name}
        </Text>
      )}
      {props.error === undefined ? null : (
        <Text size="xs" c="red" id={errorId} role="alert">
          {props.error}
        </Text>
      )}
    </Stack>
  );
}

/**
 * The ticket's photos as stored here (offline too), and, for who may add one, the button that
 * does. Nothing at all when it has none and the user may not add one.
 */
export function TicketPhotos(props: {
  readonly ticketId: string;
  readonly title: string;
  readonly mayAdd: boolean;
}) {
  const { t, i18n } = useLingui();
  const photos = useLiveQuery({
    type: 'file',
    parent: { type: 'ticket', id: props.ticketId },
    limit: 20,
  })?.items;
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const add = async (file: File) => {
    const problem = photoProblem(i18n, file);
    setError(problem);
    if (problem !== undefined) return;
    setBusy(true);
    const failed = await addTicketPhoto(props.ticketId, file);
    setBusy(false);
    if (failed !== null) setError(translateServerText(i18n, failed.message));
  };
  if (photos === undefined) return null;
  if (photos.length === 0 && !props.mayAdd) return null;
  return (
    <Stack gap="xs" data-testid="ticket-photos">
      <Group gap="sm" align="flex-start">
        {photos.map((photo) => (
          <Photo key={photo.id} file={photo} alt={t`Photo of “${props.title}”`} />
        ))}
      </Group>
      {props.mayAdd ? (
        <Group>
          <FileButton onChange={(file) => file !== null && void add(file)} accept={ACCEPT}>
            {(button) => (
              <Button {...button} variant="default" size="compact-sm" loading={busy}>
                <Trans>Add a photo</Trans>
              </Button>
            )}
          </FileButton>
        </Group>
      ) : null}
      {error === undefined ? null : (
        <Text size="xs" c="red" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}

function Photo(props: { readonly file: LocalModel<'file'>; readonly alt: string }) {
  const a = props.file.attributes;
  const url = useFileUrl(props.file.id, 'content', `${a.state}`);
  if (url === null || url.name === 'loading') return <Skeleton w={240} h={180} />;
  if (url.name === 'failed')
    return (
      <Text size="sm" c="dimmed" data-testid="ticket-photo-missing">
        <Trans>The photo cannot be shown here yet.</Trans>
      </Text>
    );
  return (
    <a href={url.url} target="_blank" rel="noreferrer">
      <Image
        src={url.url}
        alt={props.alt}
        maw={360}
        mah={270}
        fit="contain"
        radius="sm"
        data-testid="ticket-photo"
      />
    </a>
  );
}
