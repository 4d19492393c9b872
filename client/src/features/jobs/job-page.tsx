import '../themes/catalogues';
import './server-texts';
import { useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Anchor,
  Button,
  Group,
  Paper,
  Skeleton,
  Stack,
  Switch,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { jobAttributesSchema, type JobAttributes } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { ConfirmDelete } from '../../components/confirm-delete';
import { EmptyState } from '../../components/empty-state';
import { Name } from '../../components/name';
import { PageError, SavedNote, usePageState } from '../../components/page-state';
import { useUnsaved } from '../../components/unsaved';
import { translateServerText } from '../../i18n/server-texts';
import { useCan } from '../../permissions/permissions';
import { useMayEdit } from '../../permissions/may-edit';
import { useLiveModel } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { themePaths } from '../themes/paths';
import { ThemesNav } from '../themes/themes-nav';
import { useFormBase } from '../../components/changed-fields';

/** /app/jobs/{jobid}: a job of the public pages, its facts and text, published or not. */
export function JobPage() {
  const { jobid = '' }: { jobid?: string } = useParams({ strict: false });
  const state = useLiveModel('job', jobid);
  if (state.name === 'loading') return <Skeleton height={320} />;
  if (state.name === 'missing')
    return (
      <EmptyState title={<Trans>There is no such job in this account</Trans>}>
        <Button component={Link} to={themePaths.jobs()} variant="light">
          <Trans>All jobs</Trans>
        </Button>
      </EmptyState>
    );
  return <JobDetails key={state.model.id} job={state.model} />;
}

type Draft = Omit<JobAttributes, 'apply_url'> & { readonly apply_url: string };

const FIELDS = [
  'title',
  'slug',
  'location',
  'scope',
  'full_time',
  'permanent',
  'text',
  'apply_url',
  'published',
] as const;

const draftOf = (a: JobAttributes): Draft => ({ ...a, apply_url: a.apply_url ?? '' });

function JobDetails({ job }: { readonly job: LocalModel<'job'> }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const editable = useMayEdit('job', job);
  const can = useCan();
  const stored = job.attributes;
  const [draft, setDraft] = useState<Draft>(() => draftOf(stored));
  const { dirty, changed, saving } = useUnsaved();
  useEffect(() => {
    if (!dirty) setDraft(draftOf(stored));
  }, [stored, dirty]);
  // A save writes what the user changed (another user's change of the rest meanwhile stays).
  const base = useFormBase(stored, dirty);
  const page = usePageState(FIELDS);
  const set = <K extends keyof Draft>(field: K, value: Draft[K]) => {
    setDraft((old) => ({ ...old, [field]: value }));
    changed();
  };
  const save = async () => {
    const checked = page.check(
      jobAttributesSchema.safeParse({
        ...draft,
        apply_url: draft.apply_url.trim() === '' ? null : draft.apply_url.trim(),
      }),
    );
    if (checked === null) return;
    const saved = saving();
    const written = await base.save(checked, async (change) =>
      page.took(await syncWorker().writes.update('job', job.id, change), 'write'),
    );
    if (written) saved();
  };
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const remove = async () => {
    const answer = await syncWorker().writes.remove('job', job.id);
    if ('error' in answer) {
      setDeleteError(translateServerText(i18n, answer.error.message));
      return;
    }
    await navigate({ to: themePaths.jobs() });
  };
  const text = (
    field: 'title' | 'slug' | 'location' | 'scope' | 'apply_url',
    label: string,
    description?: string,
  ) => (
    <TextInput
      label={label}
      description={description}
      required={field === 'title' || field === 'slug' || field === 'location'}
      value={draft[field]}
      readOnly={!editable}
      onChange={(e) => set(field, e.currentTarget.value)}
      error={page.fields[field]}
      data-testid={`job-${field}`}
    />
  );
  return (
    <Stack gap="md" data-testid="job-details" data-id={job.id}>
      <ThemesNav />
      <Group justify="space-between">
        <Title order={1}>
          <Name>{stored.title}</Name>
        </Title>
        {stored.published ? (
          <Anchor
            href={`/jobs/${encodeURIComponent(stored.slug)}`}
            target="_blank"
            rel="noopener"
            size="sm"
          >
            <Trans>Open on the public pages</Trans>
          </Anchor>
        ) : null}
      </Group>
      <Paper withBorder p="md" radius="sm" maw={720}>
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <Stack gap="sm">
            {text('title', t`Title`)}
            {text('slug', t`Address`, t`The end of its address on the public pages: /jobs/…`)}
            {text('location', t`Location`)}
            {text('scope', t`Scope`, t`The team, the area, the travel.`)}
            <Switch
              label={t`Full time`}
              checked={draft.full_time}
              disabled={!editable}
              onChange={(e) => set('full_time', e.currentTarget.checked)}
            />
            <Switch
              label={t`Permanent`}
              checked={draft.permanent}
              disabled={!editable}
              onChange={(e) => set('permanent', e.currentTarget.checked)}
            />
            <Textarea
              label={t`Text`}
              description={t`Paragraphs are parted by an empty line.`}
              autosize
              minRows={6}
              value={draft.text}
              readOnly={!editable}
              onChange={(e) => set('text', e.currentTarget.value)}
              error={page.fields.text}
            />
            {text('apply_url', t`Where to apply`, t`An https:// address or a mailto: link.`)}
            <Switch
              label={t`Published on the public pages`}
              checked={draft.published}
              disabled={!editable}
              onChange={(e) => set('published', e.currentTarget.checked)}
              data-testid="job-published"
            />
            <PageError error={page.error} />
            {editable ? (
              <Group>
                <Button type="submit" data-testid="job-save">
                  <Trans>Save</Trans>
                </Button>
                <SavedNote saved={page.saved} />
                {can('job::delete') ? (
                  <Button
                    variant="light"
                    color="red"
                    onClick={() => {
                      setDeleteError(null);
                      setDeleting(true);
                    }}
                  >
                    <Trans>Delete job</Trans>
                  </Button>
                ) : null}
              </Group>
            ) : null}
          </Stack>
        </form>
      </Paper>
      <ConfirmDelete
        opened={deleting}
        title={t`Delete job`}
        consequences={<Trans>The job leaves the public pages. This cannot be undone.</Trans>}
        error={deleteError}
        confirmLabel={<Trans>Delete</Trans>}
        onClose={() => setDeleting(false)}
        onConfirm={() => void remove()}
      />
    </Stack>
  );
}
