import './catalogues';
import { lazy, Suspense, useMemo, useState } from 'react';
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
import { modelNameField, uuidv7 } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { DataTable } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { ModalForm } from '../../components/modal-form';
import { Name } from '../../components/name';
import { usePageState } from '../../components/page-state';
import { useCan } from '../../permissions/permissions';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { taskPaths } from './paths';
import { scheduleText } from './schedule-text';

/* The task's form (its selects, number fields and the schemas) comes when it is opened. */
const TaskForm = lazy(() => import('./task-form').then((m) => ({ default: m.TaskForm })));

/** /app/tasks (spec 000 §2): the forms, and the tasks that tie them to assets, live. */
export function TasksPage() {
  const { t, i18n } = useLingui();
  const can = useCan();
  const forms = useLiveQuery({ type: 'form', limit: 1000 });
  const versions = useLiveQuery({ type: 'form_version', limit: 1000 });
  const tasks = useLiveQuery({ type: 'task', limit: 1000 });
  const states = useLiveQuery({ type: 'task_state', limit: 1000 });
  const [editing, setEditing] = useState<LocalModel<'task'> | 'new' | null>(null);
  const published = useMemo(() => {
    const counts = new Map<string, number>();
    for (const v of versions?.items ?? [])
      counts.set(
        v.attributes.form_id,
        Math.max(counts.get(v.attributes.form_id) ?? 0, v.attributes.number),
      );
    return counts;
  }, [versions]);
  const formName = (id: string) => forms?.items.find((f) => f.id === id)?.attributes.name ?? '–';
  const dueOf = (taskId: string) =>
    states?.items.filter((s) => s.attributes.task_id === taskId && s.attributes.due).length ?? 0;
  return (
    <Stack gap="lg" data-testid="tasks-page">
      <Title order={1}>
        <Trans>Tasks</Trans>
      </Title>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h3">
            <Trans>Forms</Trans>
          </Title>
          {can('form::create') ? <NewFormButton /> : null}
        </Group>
        <DataTable
          rows={forms?.items}
          name={{ label: t`Forms` }}
          testId="forms-list"
          rowKey={(form) => form.id}
          rowData={(form) => ({ 'data-testid': 'form-row', 'data-id': form.id })}
          loading={<Skeleton height={36} />}
          empty={
            <EmptyState title={<Trans>No forms yet</Trans>}>
              <Trans>A form is what a technician fills in at the machine: design one.</Trans>
            </EmptyState>
          }
          columns={[
            {
              id: 'name',
              header: <Trans>Name</Trans>,
              rowHeader: true,
              cell: (form) => (
                <Anchor component={Link} to={taskPaths.designer(form.id)}>
                  <Name>{form.attributes.name}</Name>
                </Anchor>
              ),
            },
            {
              id: 'fields',
              header: <Trans>Fields</Trans>,
              cell: (form) => form.attributes.fields.length,
            },
            {
              id: 'version',
              header: <Trans>Published</Trans>,
              cell: (form) => {
                const n = published.get(form.id) ?? 0;
                return n === 0 ? (
                  <Badge color="gray" variant="light">
                    <Trans>Draft</Trans>
                  </Badge>
                ) : (
                  <Badge color="green" variant="light">
                    <Trans>Version {n}</Trans>
                  </Badge>
                );
              },
            },
          ]}
        />
      </Stack>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h3">
            <Trans>Tasks</Trans>
          </Title>
          {can('task::create') ? (
            <Button onClick={() => setEditing('new')} data-testid="task-new">
              <Trans>New task</Trans>
            </Button>
          ) : null}
        </Group>
        <DataTable
          rows={tasks?.items}
          name={{ label: t`Tasks` }}
          testId="tasks-list"
          rowKey={(task) => task.id}
          rowData={(task) => ({ 'data-testid': 'task-row', 'data-id': task.id })}
          loading={<Skeleton height={36} />}
          empty={
            <EmptyState title={<Trans>No tasks yet</Trans>}>
              <Trans>A task ties a form to machines: once, by date or by a counter.</Trans>
            </EmptyState>
          }
          columns={[
            {
              id: 'name',
              header: <Trans>Name</Trans>,
              rowHeader: true,
              cell: (task) =>
                can('task::edit') ? (
                  <Anchor component="button" onClick={() => setEditing(task)}>
                    <Name>{task.attributes.name}</Name>
                  </Anchor>
                ) : (
                  <Name>{task.attributes.name}</Name>
                ),
            },
            {
              id: 'form',
              header: <Trans>Form</Trans>,
              cell: (task) => <Name>{formName(task.attributes.form_id)}</Name>,
            },
            {
              id: 'schedule',
              header: <Trans>When</Trans>,
              cell: (task) => scheduleText(i18n, task.attributes.schedule),
            },
            {
              id: 'due',
              header: <Trans>Due</Trans>,
              cell: (task) => {
                const due = dueOf(task.id);
                return task.attributes.active ? (
                  <Badge color={due > 0 ? 'orange' : 'gray'} variant="light" data-testid="task-due">
                    {due}
                  </Badge>
                ) : (
                  <Badge color="gray" variant="outline">
                    <Trans>Paused</Trans>
                  </Badge>
                );
              },
            },
          ]}
        />
      </Stack>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? t`New task` : t`Task`}
        size="lg"
      >
        {editing === null ? null : (
          <Suspense fallback={<Skeleton height={240} />}>
            <TaskForm
              task={editing === 'new' ? null : editing}
              forms={(forms?.items ?? []).filter((f) => (published.get(f.id) ?? 0) > 0)}
              onDone={() => setEditing(null)}
            />
          </Suspense>
        )}
      </Modal>
    </Stack>
  );
}

function NewFormButton() {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const page = usePageState(['name']);
  const submit = async () => {
    const checked = page.check(modelNameField.safeParse(name));
    if (checked === null) return;
    const id = uuidv7();
    if (!page.took(await syncWorker().writes.create('form', { name: checked, fields: [] }, id)))
      return;
    await navigate({ to: taskPaths.designer(id) });
  };
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="form-new">
        <Trans>New form</Trans>
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t`New form`}>
        {open ? (
          <ModalForm
            testId="form-form"
            onSubmit={submit}
            onCancel={() => setOpen(false)}
            submitLabel={<Trans>Create form</Trans>}
            error={page.error}
          >
            <TextInput
              label={t`Name`}
              required
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={page.fields.name}
              data-autofocus
            />
          </ModalForm>
        ) : null}
      </Modal>
    </>
  );
}
