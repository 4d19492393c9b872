import './catalogues';
import { useMemo, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Button,
  Group,
  MultiSelect,
  NativeSelect,
  NumberInput,
  Switch,
  TextInput,
} from '@mantine/core';
import {
  taskAttributesSchema,
  uuidv7,
  type TaskAttributes,
  type TaskSchedule,
} from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { useFormBase } from '../../components/changed-fields';
import { ModalForm } from '../../components/modal-form';
import { ConfirmDelete } from '../../components/confirm-delete';
import { usePageState } from '../../components/page-state';
import { useCan } from '../../permissions/permissions';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';

const DAY = 86_400_000;

/** Today's date as a date input shows it. */
function dateInput(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** A task made or changed: its form, its machines, its schedule, who is due. */
export function TaskForm(props: {
  readonly task: LocalModel<'task'> | null;
  readonly forms: readonly LocalModel<'form'>[];
  readonly onDone: () => void;
}) {
  const { t } = useLingui();
  const can = useCan();
  const before = props.task?.attributes;
  const assets = useLiveQuery({ type: 'asset', limit: 1000 });
  const templates = useLiveQuery({ type: 'template', limit: 1000 });
  const members = useLiveQuery(can('user::view') ? { type: 'user', limit: 1000 } : null);
  const streams = useLiveQuery({ type: 'datastream', limit: 1000 });
  const [name, setName] = useState(before?.name ?? '');
  const [formId, setFormId] = useState(before?.form_id ?? props.forms[0]?.id ?? '');
  const [assetIds, setAssetIds] = useState<string[]>([...(before?.asset_ids ?? [])]);
  const [templateIds, setTemplateIds] = useState<string[]>([...(before?.template_ids ?? [])]);
  const [assignees, setAssignees] = useState<string[]>([...(before?.assignee_ids ?? [])]);
  const [active, setActive] = useState(before?.active ?? true);
  const schedule0 = before?.schedule;
  const [kind, setKind] = useState<TaskSchedule['kind']>(schedule0?.kind ?? 'date');
  const [every, setEvery] = useState<number | string>(
    schedule0?.kind === 'date' ? schedule0.every : 1,
  );
  const [unit, setUnit] = useState<'day' | 'week' | 'month'>(
    schedule0?.kind === 'date' ? schedule0.unit : 'month',
  );
  const [startAt, setStartAt] = useState(
    dateInput(schedule0?.kind === 'date' ? schedule0.start_at : Math.floor(Date.now() / DAY) * DAY),
  );
  const [dueAt, setDueAt] = useState(
    schedule0?.kind === 'once' && schedule0.due_at !== null ? dateInput(schedule0.due_at) : '',
  );
  const [streamName, setStreamName] = useState(
    schedule0?.kind === 'counter' ? schedule0.stream_name : '',
  );
  const [step, setStep] = useState<number | string>(
    schedule0?.kind === 'counter' ? schedule0.step : 500,
  );
  const [start, setStart] = useState<number | string>(
    schedule0?.kind === 'counter' ? schedule0.start : 0,
  );
  const [deleting, setDeleting] = useState(false);
  const page = usePageState(['name', 'form_id', 'asset_ids', 'schedule']);
  // A change writes what the user changed (another user's change of the rest meanwhile stays).
  const base = useFormBase<Partial<TaskAttributes>>(before ?? {}, true);
  // The counter: a stream name the chosen machines have (a template's machines share its names).
  const streamNames = useMemo(() => {
    const names = new Set<string>();
    for (const s of streams?.items ?? [])
      if (assetIds.length === 0 || assetIds.includes(s.attributes.asset_id))
        names.add(s.attributes.name);
    return [...names].sort();
  }, [streams, assetIds]);
  const schedule = (): unknown => {
    if (kind === 'once')
      return { kind, due_at: dueAt === '' ? null : new Date(`${dueAt}T00:00:00`).getTime() };
    if (kind === 'date')
      return {
        kind,
        every: Number(every),
        unit,
        start_at: new Date(`${startAt}T00:00:00`).getTime(),
      };
    return { kind, stream_name: streamName, step: Number(step), start: Number(start) };
  };
  const submit = async () => {
    const checked = page.check(
      taskAttributesSchema.safeParse({
        name,
        form_id: formId,
        asset_ids: assetIds,
        template_ids: templateIds,
        schedule: schedule(),
        assignee_ids: assignees,
        active,
      } satisfies Record<keyof TaskAttributes, unknown>),
    );
    if (checked === null) return;
    if (checked.asset_ids.length + checked.template_ids.length === 0) {
      page.fail(t`Choose at least one asset or template.`);
      return;
    }
    const writes = syncWorker().writes;
    const task = props.task;
    const done =
      task === null
        ? page.took(await writes.create('task', checked, uuidv7()))
        : await base.save(checked, async (change) =>
            page.took(await writes.update('task', task.id, change)),
          );
    if (done) props.onDone();
  };
  return (
    <>
      <ModalForm
        testId="task-form"
        onSubmit={submit}
        onCancel={props.onDone}
        submitLabel={props.task === null ? <Trans>Create task</Trans> : <Trans>Save</Trans>}
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
        <NativeSelect
          label={t`Form`}
          required
          value={formId}
          onChange={(e) => setFormId(e.currentTarget.value)}
          error={page.fields.form_id}
          data={[
            { value: '', label: t`Choose a published form…` },
            ...props.forms.map((f) => ({ value: f.id, label: f.attributes.name })),
          ]}
        />
        <MultiSelect
          label={t`Assets`}
          searchable
          value={assetIds}
          onChange={setAssetIds}
          error={page.fields.asset_ids}
          data={(assets?.items ?? []).map((a) => ({ value: a.id, label: a.attributes.name }))}
          data-testid="task-assets"
        />
        <MultiSelect
          label={t`Templates (every asset made from them)`}
          searchable
          value={templateIds}
          onChange={setTemplateIds}
          data={(templates?.items ?? []).map((x) => ({ value: x.id, label: x.attributes.name }))}
        />
        <NativeSelect
          label={t`When`}
          value={kind}
          onChange={(e) => setKind(e.currentTarget.value as TaskSchedule['kind'])}
          data={[
            { value: 'once', label: t`Once` },
            { value: 'date', label: t`Recurring by date` },
            { value: 'counter', label: t`Recurring by a counter stream` },
          ]}
          data-testid="task-kind"
        />
        {kind === 'once' ? (
          <TextInput
            type="date"
            label={t`Due from`}
            value={dueAt}
            onChange={(e) => setDueAt(e.currentTarget.value)}
            error={page.fields.schedule}
          />
        ) : null}
        {kind === 'date' ? (
          <Group grow align="flex-start">
            <NumberInput
              label={t`Every`}
              min={1}
              value={every}
              onChange={setEvery}
              error={page.fields.schedule}
            />
            <NativeSelect
              label={t`Unit`}
              value={unit}
              onChange={(e) => setUnit(e.currentTarget.value as 'day' | 'week' | 'month')}
              data={[
                { value: 'day', label: t`days` },
                { value: 'week', label: t`weeks` },
                { value: 'month', label: t`months` },
              ]}
            />
            <TextInput
              type="date"
              label={t`Starting`}
              value={startAt}
              onChange={(e) => setStartAt(e.currentTarget.value)}
            />
          </Group>
        ) : null}
        {kind === 'counter' ? (
          <Group grow align="flex-start">
            <NativeSelect
              label={t`Counter stream`}
              required
              value={streamName}
              onChange={(e) => setStreamName(e.currentTarget.value)}
              error={page.fields.schedule}
              data={[{ value: '', label: t`Choose…` }, ...streamNames]}
              data-testid="task-counter"
            />
            <NumberInput label={t`Every (step)`} min={0} value={step} onChange={setStep} />
            <NumberInput label={t`Counting from`} value={start} onChange={setStart} />
          </Group>
        ) : null}
        {members === undefined ? null : (
          <MultiSelect
            label={t`Who is due (none: anyone who fills in forms)`}
            searchable
            value={assignees}
            onChange={setAssignees}
            data={members.items.map((m) => ({
              value: m.id,
              label:
                `${m.attributes.firstname} ${m.attributes.lastname}`.trim() || m.attributes.email,
            }))}
          />
        )}
        <Switch
          label={t`Active`}
          checked={active}
          onChange={(e) => setActive(e.currentTarget.checked)}
        />
        {props.task !== null && can('task::delete') ? (
          <Group>
            <Button color="red" variant="subtle" onClick={() => setDeleting(true)}>
              <Trans>Delete task</Trans>
            </Button>
          </Group>
        ) : null}
      </ModalForm>
      {props.task === null ? null : (
        <ConfirmDelete
          opened={deleting}
          title={t`Delete task`}
          consequences={<Trans>The filled-in forms stay in the machines’ service booklets.</Trans>}
          error={null}
          confirmLabel={<Trans>Delete task</Trans>}
          onClose={() => setDeleting(false)}
          onConfirm={() => {
            const id = props.task?.id;
            if (id === undefined) return;
            void syncWorker()
              .writes.remove('task', id)
              .then(() => props.onDone());
          }}
        />
      )}
    </>
  );
}
