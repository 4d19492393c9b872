import './catalogues';
import { useEffect, useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Button, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { uuidv7, type FormEntryAttributes } from '@plant/shared-schema';
import { EmptyState } from '../../components/empty-state';
import { Name } from '../../components/name';
import { useCan } from '../../permissions/permissions';
import { activeAccountIdAtom, sessionAtom } from '../../state/session';
import { useLiveModel, useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { translateServerText } from '../../i18n/server-texts';
import { draftKey, dropDraft, readDraft, saveDraft } from './drafts';
import { EMPTY_FILL, FormFill, fillProblems, valuesOf, type FillState } from './form-fill';
import { taskPaths } from './paths';

/**
 * Filling in a form at the machine (issue 37 item 2): the form's latest published version, on
 * the tablet, offline too. Every change is kept as a draft on this device at once (a reload or a
 * crash loses nothing); Send writes the entry and its photos and signature to the worker, which
 * sends them once the network is back (the entry first, then its files).
 */
export function FillPage() {
  const {
    id = '',
    formid = '',
    taskid,
  }: { id?: string; formid?: string; taskid?: string } = useParams({ strict: false });
  const params = { id, formid, taskid };
  const { t, i18n } = useLingui();
  const can = useCan();
  const navigate = useNavigate();
  const userId = useAtomValue(sessionAtom)?.user.id ?? '';
  const accountId = useAtomValue(activeAccountIdAtom) ?? '';
  const asset = useLiveModel('asset', params.id);
  const form = useLiveModel('form', params.formid);
  const versions = useLiveQuery({
    type: 'form_version',
    parent: { type: 'form', id: params.formid },
    sort: { field: 'number', direction: 'desc' },
    limit: 1,
  });
  const version = versions?.items[0];
  const taskId = params.taskid ?? null;
  const key = draftKey({ userId, accountId, assetId: params.id, formId: params.formid, taskId });
  const [fill, setFill] = useState<FillState | null>(null);
  const [showAll, setShowAll] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const saving = useRef<Promise<void>>(Promise.resolve());

  // The draft of this form on this asset, if one was begun here.
  useEffect(() => {
    let live = true;
    void readDraft(key)
      .catch(() => undefined)
      .then((draft) => {
        if (live) setFill(draft === undefined ? EMPTY_FILL : draft);
      });
    return () => {
      live = false;
    };
  }, [key]);

  const change = (next: FillState) => {
    setFill(next);
    // Kept in order: the last change is the one stored.
    saving.current = saving.current
      .then(() => saveDraft({ key, ...next, savedAt: Date.now() }))
      .catch(() => setError(t`The draft could not be kept on this device.`));
  };

  if (
    asset.name === 'loading' ||
    form.name === 'loading' ||
    versions === undefined ||
    fill === null
  )
    return <Skeleton height={240} />;
  if (asset.name === 'missing' || form.name === 'missing')
    return <EmptyState title={<Trans>This form or asset does not exist (any more).</Trans>} />;
  if (version === undefined)
    return (
      <EmptyState title={<Trans>This form has no published version yet.</Trans>}>
        <Anchor component={Link} to={taskPaths.booklet(params.id)}>
          <Trans>Back to the service booklet</Trans>
        </Anchor>
      </EmptyState>
    );
  const fields = version.attributes.fields;

  const send = async () => {
    setError(null);
    if (Object.keys(fillProblems(fields, fill)).length > 0) {
      setShowAll(true);
      setError(t`Please correct the marked fields.`);
      return;
    }
    setSending(true);
    try {
      await saving.current;
      const entryId = uuidv7();
      const worker = syncWorker();
      const entry: Pick<
        FormEntryAttributes,
        'asset_id' | 'form_id' | 'form_version_id' | 'task_id' | 'values' | 'filled_at'
      > = {
        asset_id: params.id,
        form_id: params.formid,
        form_version_id: version.id,
        task_id: taskId,
        values: valuesOf(fields, fill),
        filled_at: Date.now(),
      };
      const made = await worker.writes.create('form_entry', entry, entryId);
      if ('error' in made) {
        setError(translateServerText(i18n, made.error.message));
        return;
      }
      // The entry's files after it: the outbox sends them in this order.
      const kinds = new Map(fields.map((f) => [f.id, f.type]));
      for (const [fieldId, files] of Object.entries(fill.files)) {
        if (!kinds.has(fieldId)) continue;
        for (const file of files) {
          const added = await worker.files.add(
            { entry: entryId, asset: params.id },
            'photo',
            file.blob,
            file.name,
            undefined,
            file.id,
          );
          if ('error' in added) {
            setError(translateServerText(i18n, added.error.message));
            return;
          }
        }
      }
      await dropDraft(key).catch(() => undefined);
      await navigate({ to: taskPaths.booklet(params.id) });
    } finally {
      setSending(false);
    }
  };

  return (
    <Stack gap="md" maw={760} data-testid="form-fill-page">
      <Stack gap={2}>
        <Title order={1}>
          <Name>{form.model.attributes.name}</Name>
        </Title>
        <Text c="dimmed" size="sm">
          <Trans>
            On <Name>{asset.model.attributes.name}</Name> · version {version.attributes.number}
          </Trans>
        </Text>
        {form.model.attributes.description === '' ? null : (
          <Text size="sm">{form.model.attributes.description}</Text>
        )}
      </Stack>
      <FormFill
        fields={fields}
        state={fill}
        onChange={change}
        showAll={showAll}
        disabled={sending || !can('form_entry::create')}
      />
      {error === null ? null : (
        <Alert color="red" role="alert" data-testid="fill-error">
          {error}
        </Alert>
      )}
      <Group>
        <Button
          onClick={() => void send()}
          loading={sending}
          disabled={!can('form_entry::create')}
          data-testid="fill-send"
        >
          <Trans>Send</Trans>
        </Button>
        <Anchor component={Link} to={taskPaths.booklet(params.id)}>
          <Trans>Back to the service booklet (the draft stays)</Trans>
        </Anchor>
      </Group>
    </Stack>
  );
}
