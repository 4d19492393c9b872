import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { LocalModel } from '@plant/sync-worker/api';
import { EmptyState } from '../../components/empty-state';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { useCan } from '../../permissions/permissions';
import { useLiveModel } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { devicePaths } from '../devices/paths';
import { templatePaths } from './template-paths';
import { ConfirmDelete } from '../../components/confirm-delete';
import { Name } from '../../components/name';
import { isolate } from '@plant/shared-schema';

/** The asset a template was saved from, linked; or why there is none to show. */
export function SourceAsset({ id }: { readonly id: string | null }) {
  if (id === null) {
    return (
      <Text size="sm" c="dimmed" span>
        <Trans>No asset</Trans>
      </Text>
    );
  }
  return <SourceAssetName id={id} />;
}

function SourceAssetName({ id }: { readonly id: string }) {
  const state = useLiveModel('asset', id);
  if (state.name === 'loading') return null;
  if (state.name === 'missing') {
    return (
      <Text size="sm" c="dimmed" span>
        <Trans>An asset you cannot see</Trans>
      </Text>
    );
  }
  return (
    <Anchor component={Link} to={devicePaths.details(id)} data-testid="template-source">
      <Name>{state.model.attributes.name}</Name>
    </Anchor>
  );
}

/**
 * "Delete" of a template (template::delete), after a confirmation: the assets made from it stay
 * as they are. `onDeleted` runs once the delete is in the local store.
 */
export function DeleteTemplateButton(props: {
  readonly template: LocalModel<'template'>;
  readonly onDeleted?: () => void;
}) {
  const { t, i18n } = useLingui();
  const can = useCan();
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!can('template::delete')) return null;
  // Isolated: the name is inside the labels' and the confirm's texts.
  const name = isolate(props.template.attributes.name);
  const remove = async () => {
    const answer = await syncWorker().writes.remove('template', props.template.id);
    if ('error' in answer) {
      setError(translateServerText(i18n, callErrorText(answer.error)));
      return;
    }
    setAsking(false);
    props.onDeleted?.();
  };
  return (
    <>
      <Button
        variant="subtle"
        color="red"
        onClick={() => setAsking(true)}
        aria-label={t`Delete ${name}`}
        data-testid="delete-template"
      >
        <Trans>Delete</Trans>
      </Button>
      <ConfirmDelete
        opened={asking}
        title={t`Delete ${name}?`}
        consequences={
          <Trans>
            The template is deleted. Assets made from it stay as they are. This cannot be undone.
          </Trans>
        }
        error={error}
        confirmLabel={<Trans>Delete template</Trans>}
        confirmTestId="confirm-delete-template"
        onClose={() => setAsking(false)}
        onConfirm={() => void remove()}
      />
    </>
  );
}

/** A template that is not in the local store (deleted, another account's, not loaded yet). */
export function TemplateNotFound(props: { readonly notLoaded: boolean }) {
  return (
    <Stack gap="md" data-testid="template-not-found">
      <Title order={1}>
        <Trans>Template not found</Trans>
      </Title>
      <EmptyState
        title={
          props.notLoaded ? (
            <Trans>This template is not on this device yet</Trans>
          ) : (
            <Trans>There is no such template in this account</Trans>
          )
        }
      >
        <Text c="dimmed" ta="center">
          {props.notLoaded ? (
            <Trans>
              The account's data could not be loaded from the server yet. It appears here once the
              connection is back.
            </Trans>
          ) : (
            <Trans>
              It may have been deleted, or the link belongs to another account. Pick a template from
              the list.
            </Trans>
          )}
        </Text>
        <Button component={Link} to={templatePaths.list()} variant="light">
          <Trans>Go to the templates</Trans>
        </Button>
      </EmptyState>
    </Stack>
  );
}

/** Templates are not among what the user's roles show. */
export function NoTemplateAccess() {
  return (
    <EmptyState title={<Trans>Templates are not shown to your role</Trans>}>
      <Text c="dimmed" ta="center">
        <Trans>Ask an administrator of the account for the permission to view templates.</Trans>
      </Text>
    </EmptyState>
  );
}
