import '../themes/catalogues';
import './server-texts';
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  Skeleton,
  Stack,
  TextInput,
  Title,
} from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import { jobAttributesSchema, slugOf, uuidv7 } from '@plant/shared-schema';
import { DataTable } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { ModalForm } from '../../components/modal-form';
import { Name } from '../../components/name';
import { usePageState } from '../../components/page-state';
import { useCan } from '../../permissions/permissions';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { themePaths } from '../themes/paths';
import { ThemesNav } from '../themes/themes-nav';

/** /app/jobs/list: the jobs of the public pages, published or not, live. */
export function JobsListPage() {
  const { t } = useLingui();
  const jobs = useLiveQuery({ type: 'job', limit: 1000 });
  return (
    <Stack gap="md" data-testid="jobs-page">
      <ThemesNav />
      <Group justify="space-between">
        <Title order={1}>
          <Trans>Jobs</Trans>
        </Title>
        <NewJobButton />
      </Group>
      <DataTable
        rows={jobs?.items}
        name={{ label: t`Jobs` }}
        testId="jobs-list"
        rowKey={(job) => job.id}
        rowData={(job) => ({ 'data-testid': 'job-row', 'data-id': job.id })}
        loading={<Skeleton height={36} />}
        empty={<EmptyState title={<Trans>No jobs yet</Trans>} />}
        columns={[
          {
            id: 'title',
            header: <Trans>Title</Trans>,
            rowHeader: true,
            cell: (job) => (
              <Anchor component={Link} to={themePaths.job(job.id)}>
                <Name>{job.attributes.title}</Name>
              </Anchor>
            ),
          },
          {
            id: 'location',
            header: <Trans>Location</Trans>,
            cell: (job) => <Name>{job.attributes.location}</Name>,
          },
          {
            id: 'published',
            header: <Trans>On the public pages</Trans>,
            cell: (job) =>
              job.attributes.published ? (
                <Badge color="green" variant="light">
                  <Trans>Published</Trans>
                </Badge>
              ) : (
                <Badge color="gray" variant="light">
                  <Trans>Draft</Trans>
                </Badge>
              ),
          },
        ]}
      />
    </Stack>
  );
}

function NewJobButton() {
  const { t } = useLingui();
  const can = useCan();
  const [open, setOpen] = useState(false);
  if (!can('job::create')) return null;
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="job-new">
        <Trans>New job</Trans>
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t`New job`}>
        {open ? <NewJobForm onCancel={() => setOpen(false)} /> : null}
      </Modal>
    </>
  );
}

function NewJobForm(props: { readonly onCancel: () => void }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [title, setTitle] = useState('');
  const [location, setLocation] = useState('');
  const page = usePageState(['title', 'location', 'slug']);
  const submit = async () => {
    const checked = page.check(
      jobAttributesSchema.safeParse({ title, location, slug: slugOf(title) || 'job' }),
    );
    if (checked === null) return;
    const id = uuidv7();
    if (!page.took(await syncWorker().writes.create('job', checked, id))) return;
    await navigate({ to: themePaths.job(id) });
  };
  return (
    <ModalForm
      testId="job-form"
      onSubmit={submit}
      onCancel={props.onCancel}
      submitLabel={<Trans>Create job</Trans>}
      error={page.error ?? page.fields.slug ?? null}
    >
      <TextInput
        label={t`Title`}
        required
        value={title}
        onChange={(e) => setTitle(e.currentTarget.value)}
        error={page.fields.title}
        data-autofocus
      />
      <TextInput
        label={t`Location`}
        required
        value={location}
        onChange={(e) => setLocation(e.currentTarget.value)}
        error={page.fields.location}
      />
    </ModalForm>
  );
}
