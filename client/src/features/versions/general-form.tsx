import { useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, MultiSelect, Paper, Stack, Textarea, TextInput } from '@mantine/core';
import { deferred, releaseAttributesSchema } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { useFormBase } from '../../components/changed-fields';
import { usePageState } from '../../components/page-state';
import { useUnsaved } from '../../components/unsaved';
import { useMayEdit } from '../../permissions/may-edit';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { RefusalAlert, SaveWithConfirmation, useRefusal } from './release-parts';

const generalSchema = /* @__PURE__ */ deferred(() =>
  releaseAttributesSchema.pick({ version: true, notes: true, boards: true }),
);

/**
 * A version's general tab: its number, notes and the boards it fits. A draft changes (saved
 * through the worker, offline too); a released version shows them read-only and says why, and a
 * change written before it was released comes back refused by the server, said here.
 */
export function GeneralForm({ release }: { readonly release: LocalModel<'release'> }) {
  const { t } = useLingui();
  const a = release.attributes;
  const mayEdit = useMayEdit('release', release);
  const editable = mayEdit && a.state === 'draft';
  const [version, setVersion] = useState(a.version);
  const [notes, setNotes] = useState(a.notes);
  const [boards, setBoards] = useState<string[]>([...a.boards]);
  const page = usePageState(['version', 'notes', 'boards']);
  const [refusal, clearRefusal] = useRefusal(release.id, false);
  const boardRows = useLiveQuery({ type: 'board', limit: 1000 });
  // Another device's change (or the server's answer) shows when this form has none of its own.
  const { dirty, changed, saving } = useUnsaved();
  useEffect(() => {
    if (dirty) return;
    setVersion(a.version);
    setNotes(a.notes);
    setBoards([...a.boards]);
  }, [a.version, a.notes, a.boards, dirty]);
  // A save writes what the user changed (another user's change of the rest meanwhile stays).
  const base = useFormBase(a, dirty);

  const save = async () => {
    clearRefusal();
    const checked = page.check(generalSchema.safeParse({ version, notes, boards }));
    if (checked === null) return;
    const saved = saving();
    const written = await base.save(checked, async (change) =>
      page.took(await syncWorker().writes.update('release', release.id, change), 'write'),
    );
    if (written) saved();
  };

  return (
    <Paper withBorder p="md" radius="sm">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
        data-testid="release-general"
      >
        <Stack gap="sm">
          {a.state !== 'draft' ? (
            <Alert color="blue" variant="light" data-testid="release-fixed">
              <Trans>A released version can no longer change.</Trans>
            </Alert>
          ) : null}
          <TextInput
            label={t`Version`}
            value={version}
            readOnly={!editable}
            onChange={(e) => {
              setVersion(e.currentTarget.value);
              changed();
            }}
            error={page.fields.version}
            data-testid="release-version-field"
          />
          <MultiSelect
            label={t`Fits the boards`}
            description={t`None chosen: it fits any board.`}
            data={(boardRows?.items ?? []).map((b) => ({ value: b.id, label: b.attributes.name }))}
            value={boards}
            readOnly={!editable}
            onChange={(value) => {
              setBoards(value);
              changed();
            }}
            error={page.fields.boards}
            data-testid="release-boards"
          />
          <Textarea
            label={t`Release notes`}
            value={notes}
            readOnly={!editable}
            autosize
            minRows={3}
            onChange={(e) => {
              setNotes(e.currentTarget.value);
              changed();
            }}
            error={page.fields.notes}
            data-testid="release-notes"
          />
          {page.error === null ? null : (
            <Alert color="red" role="alert">
              {page.error}
            </Alert>
          )}
          <RefusalAlert text={refusal} />
          {editable ? <SaveWithConfirmation saved={page.saved} testId="release-save" /> : null}
        </Stack>
      </form>
    </Paper>
  );
}
