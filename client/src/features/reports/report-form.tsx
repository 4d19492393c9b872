import { useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Button,
  Checkbox,
  Fieldset,
  Group,
  NativeSelect,
  Radio,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { uuidv7 } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { changedFields } from '../../components/changed-fields';
import { useConfirmedWrite } from '../../sync/confirmed-write';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import {
  checkDraft,
  draftOf,
  DRAFT_FIELDS,
  RANGE_UNITS,
  REPORT_EVERY,
  type DraftErrors,
  type ReportDraft,
} from './report-draft';
import { reportText, unitLabel, weekdayLabel } from './report-texts';
import { RecipientsEditor } from '../alarms/recipients-editor';

export interface ReportFormProps {
  /** The report edited; absent: a new one. */
  readonly report?: LocalModel<'report'>;
  /** A new report of this asset (its page's section); null: of the account. */
  readonly assetId: string | null;
  /** After a save (with the report's id) or a cancel (null). */
  readonly onDone: (savedId: string | null) => void;
}

/**
 * The report form (issue 31 item 4): name, dashboard, range (the last N hours, days, weeks or
 * months), a schedule (daily, weekly or monthly at a time in a time zone) or a sending interval
 * in seconds or milliseconds (spec 001 §9), recipients (the account's users or outside
 * addresses, which confirm first), attachments PDF and/or CSV, active or paused. Problems show on
 * their fields as the user types; a refusal of the server comes back on its fields. The write
 * goes through the worker: offline it is kept and sent later.
 */
export function ReportForm(props: ReportFormProps) {
  const { t, i18n } = useLingui();
  const [draft, setDraft] = useState<ReportDraft>(() => draftOf(props.report?.attributes ?? null));
  // The stored report as the form opened, as the form reads it (an edit writes what changed).
  const [base] = useState(
    () => checkDraft(draftOf(props.report?.attributes ?? null)).attributes ?? {},
  );
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const {
    serverErrors,
    setServerErrors,
    formError,
    setFormError,
    waitingFor,
    showWorkerError,
    waitOrClose,
  } = useConfirmedWrite<DraftErrors>(
    'report',
    (id) => props.onDone(id),
    (text) => reportText(i18n, text),
  );
  const form = useRef<HTMLFormElement>(null);

  // The dashboards it may mail: the account's, and (for an asset's report) the asset's own.
  const dashboards = useLiveQuery({ type: 'dashboard', limit: 1000 });
  const choices = (dashboards?.items ?? []).filter(
    (d) => d.attributes.asset_id === null || d.attributes.asset_id === props.assetId,
  );

  const checked = checkDraft(draft);
  const shown = (field: string): string | undefined => {
    const text =
      serverErrors[field] ??
      (submitted || touched.has(field.split('.')[0] ?? field) ? checked.errors[field] : undefined);
    return text === undefined ? undefined : reportText(i18n, text);
  };
  const set = (field: string, patch: Partial<ReportDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setTouched((s) => new Set(s).add(field));
    setServerErrors((e) => {
      const next = Object.fromEntries(
        Object.entries(e).filter(([k]) => k !== field && !k.startsWith(`${field}.`)),
      );
      return Object.keys(next).length === Object.keys(e).length ? e : next;
    });
  };

  const save = async () => {
    setSubmitted(true);
    setFormError(null);
    if (checked.attributes === null) {
      const first = Object.keys(checked.errors).sort(
        (a, b) =>
          DRAFT_FIELDS.findIndex((f) => a.startsWith(f)) -
          DRAFT_FIELDS.findIndex((f) => b.startsWith(f)),
      )[0];
      const field = first?.split('.')[0];
      form.current?.querySelector<HTMLElement>(`[data-field="${field}"]`)?.focus();
      return;
    }
    const writes = syncWorker().writes;
    if (props.report === undefined) {
      const id = uuidv7();
      const answer = await writes.create(
        'report',
        { ...checked.attributes, asset_id: props.assetId },
        id,
      );
      if ('error' in answer) return showWorkerError(answer.error);
      waitOrClose(id);
    } else {
      // Only what the user changed from the report as the form opened: a field another user
      // changed meanwhile keeps that change.
      const change = changedFields(checked.attributes, base);
      if (Object.keys(change).length === 0) return props.onDone(props.report.id);
      const answer = await writes.update('report', props.report.id, change);
      if ('error' in answer) return showWorkerError(answer.error);
      waitOrClose(props.report.id);
    }
  };

  return (
    <form
      ref={form}
      noValidate
      data-testid="report-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t`Name`}
            required
            value={draft.name}
            onChange={(e) => set('name', { name: e.currentTarget.value })}
            error={shown('name')}
            data-field="name"
          />
          <NativeSelect
            label={t`Dashboard`}
            required
            value={draft.dashboardId}
            onChange={(e) => set('dashboard_id', { dashboardId: e.currentTarget.value })}
            data={[
              { value: '', label: t`Choose a dashboard` },
              ...choices.map((d) => ({ value: d.id, label: d.attributes.name })),
            ]}
            error={shown('dashboard_id')}
            data-field="dashboard_id"
          />
        </SimpleGrid>
        <Fieldset legend={t`Range`} data-field="range" tabIndex={-1}>
          <Group align="flex-start" gap="xs">
            <TextInput
              label={t`The last`}
              inputMode="numeric"
              value={draft.last}
              onChange={(e) => set('range', { last: e.currentTarget.value })}
              error={shown('range.last')}
              w={120}
            />
            <NativeSelect
              label={t`Unit`}
              value={draft.unit}
              onChange={(e) => {
                const unit = RANGE_UNITS.find((u) => u === e.currentTarget.value);
                if (unit !== undefined) set('range', { unit });
              }}
              data={RANGE_UNITS.map((u) => ({ value: u, label: unitLabel(i18n, u) }))}
            />
          </Group>
        </Fieldset>
        <Fieldset legend={t`When it is sent`} data-field="schedule" tabIndex={-1}>
          <Stack gap="xs">
            <Radio.Group
              value={draft.when}
              onChange={(value) =>
                set('schedule', { when: value === 'interval' ? 'interval' : 'schedule' })
              }
              aria-label={t`When it is sent`}
            >
              <Group gap="md">
                <Radio value="schedule" label={t`On a schedule`} />
                <Radio
                  value="interval"
                  label={t`At a sending interval`}
                  data-testid="report-when-interval"
                />
              </Group>
            </Radio.Group>
            {draft.when === 'schedule' ? (
              <Group align="flex-start" gap="xs">
                <NativeSelect
                  label={t`Repeat`}
                  value={draft.every}
                  onChange={(e) => {
                    const every = REPORT_EVERY.find((v) => v === e.currentTarget.value);
                    if (every !== undefined) set('schedule', { every });
                  }}
                  data={[
                    { value: 'day', label: t`Daily` },
                    { value: 'week', label: t`Weekly` },
                    { value: 'month', label: t`Monthly` },
                  ]}
                />
                {draft.every === 'week' ? (
                  <NativeSelect
                    label={t`Day of the week`}
                    value={draft.weekday}
                    onChange={(e) => set('schedule', { weekday: e.currentTarget.value })}
                    data={[1, 2, 3, 4, 5, 6, 7].map((d) => ({
                      value: String(d),
                      label: weekdayLabel(i18n, d),
                    }))}
                    error={shown('schedule.weekday')}
                  />
                ) : null}
                {draft.every === 'month' ? (
                  <TextInput
                    label={t`Day of the month`}
                    inputMode="numeric"
                    value={draft.monthday}
                    onChange={(e) => set('schedule', { monthday: e.currentTarget.value })}
                    error={shown('schedule.monthday')}
                    w={120}
                  />
                ) : null}
                <TextInput
                  label={t`Time`}
                  type="time"
                  value={draft.at}
                  onChange={(e) => set('schedule', { at: e.currentTarget.value })}
                  error={shown('schedule.at')}
                  w={120}
                />
                <TextInput
                  label={t`Time zone`}
                  value={draft.tz}
                  onChange={(e) => set('schedule', { tz: e.currentTarget.value })}
                  error={shown('schedule.tz')}
                />
              </Group>
            ) : (
              <Group align="flex-start" gap="xs">
                <TextInput
                  label={t`Sending interval`}
                  inputMode="numeric"
                  value={draft.interval}
                  onChange={(e) => set('interval_ms', { interval: e.currentTarget.value })}
                  error={shown('interval_ms')}
                  data-field="interval_ms"
                  w={160}
                />
                <NativeSelect
                  label={t`Unit`}
                  value={draft.intervalUnit}
                  onChange={(e) =>
                    set('interval_ms', {
                      intervalUnit: e.currentTarget.value === 'ms' ? 'ms' : 's',
                    })
                  }
                  data={[
                    { value: 's', label: t`seconds` },
                    { value: 'ms', label: t`milliseconds` },
                  ]}
                />
              </Group>
            )}
            {draft.when === 'schedule' && shown('schedule') !== undefined ? (
              <Text size="sm" c="red" role="alert">
                {shown('schedule')}
              </Text>
            ) : null}
          </Stack>
        </Fieldset>
        <RecipientsEditor
          recipients={draft.recipients}
          error={shown('recipients')}
          rowError={(i) => shown(`recipients.${i}`)}
          onChange={(recipients) => set('recipients', { recipients })}
          make={(who) => who}
          empty={<Trans>Nobody gets it yet: add users of the account or email addresses.</Trans>}
          testId="report-recipients"
          addressNote={<Trans>Gets reports once the address confirms.</Trans>}
          translate={(text) => reportText(i18n, text)}
        />
        <Fieldset legend={t`Attachments`} data-field="attachments" tabIndex={-1}>
          <Group gap="md">
            <Checkbox
              label={t`PDF`}
              checked={draft.pdf}
              onChange={(e) => set('attachments', { pdf: e.currentTarget.checked })}
            />
            <Checkbox
              label={t`CSV of the values`}
              checked={draft.csv}
              onChange={(e) => set('attachments', { csv: e.currentTarget.checked })}
            />
          </Group>
          {shown('attachments') === undefined ? null : (
            <Text size="sm" c="red" role="alert">
              {shown('attachments')}
            </Text>
          )}
        </Fieldset>
        <Switch
          label={t`Active (paused reports send nothing)`}
          checked={draft.active}
          onChange={(e) => set('state', { active: e.currentTarget.checked })}
        />
        {formError === null ? null : (
          <Alert color="red" role="alert">
            {formError}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => props.onDone(null)}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" loading={waitingFor !== null} data-testid="report-save">
            <Trans>Save</Trans>
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
