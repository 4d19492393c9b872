import { useEffect, useMemo, useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import {
  isolate,
  ALARM_CHANNELS,
  ALARM_CONDITIONS,
  ALARM_KINDS,
  ALARM_SEVERITIES,
  suggestAlarmTuning,
  uuidv7,
  type AlarmChannel,
  type AlarmTuning,
} from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { RecipientsEditor } from './recipients-editor';
import { changedFields } from '../../components/changed-fields';
import { useConfirmedWrite } from '../../sync/confirmed-write';
import { useLiveModel, useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import {
  checkDraft,
  draftOf,
  DRAFT_FIELDS,
  type AlarmDraft,
  type DraftErrors,
  type DraftRecipient,
} from './alarm-draft';
import { alarmText, channelLabel, conditionLabel, kindLabel, severityLabel } from './alarm-texts';
import { TryRule, useTrialHistory } from './try-rule';

export interface AlarmFormProps {
  /** The alarm edited; absent: a new one. */
  readonly alarm?: LocalModel<'alarm'>;
  /** A new alarm's stream (from a stream's page): no pickers then. */
  readonly stream?: { readonly assetId: string; readonly streamId: string };
  /** After a save (with the alarm's id) or a cancel. */
  readonly onDone: (savedId: string | null) => void;
}

/**
 * The alarm form (issue 17 items 1, 3): kind, name, limits, condition, severity, unit (the
 * stream's, prefilled), delay, hysteresis, minutes for no-data and offline alarms, recipients
 * (the account's users from the local store, or outside addresses, each with channels), enabled.
 * Problems show on their fields as the user types (the schema and the model's rules, as the
 * worker and server judge); a refusal of the server comes back on its fields. The write goes
 * through the worker: offline it is kept and sent later.
 */
export function AlarmForm(props: AlarmFormProps) {
  const { t, i18n } = useLingui();
  const editing = props.alarm !== undefined;
  const [draft, setDraft] = useState<AlarmDraft>(() =>
    draftOf(props.alarm?.attributes ?? null, {
      assetId: props.stream?.assetId ?? '',
      streamId: props.stream?.streamId ?? '',
      unit: '',
    }),
  );
  // The stored alarm as the form opened (an edit writes what changed from it).
  const [base] = useState(() => props.alarm?.attributes);
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
    'alarm',
    (id) => props.onDone(id),
    (text) => alarmText(i18n, text),
  );
  const form = useRef<HTMLFormElement>(null);

  const streamState = useLiveModel('datastream', draft.streamId);
  const stream = streamState.name === 'found' ? streamState.model : null;
  // A new alarm takes its stream's unit (while the user has not typed another).
  const prefilled = useRef<string | null>(null);
  useEffect(() => {
    if (editing || stream === null) return;
    const unit = stream.attributes.unit;
    // The updater runs at the next render, after the ref below has moved on: keep the old one.
    const before = prefilled.current;
    setDraft((d) => (d.unit === '' || d.unit === before ? { ...d, unit } : d));
    prefilled.current = unit;
  }, [editing, stream]);

  // A new limit alarm reads its stream's last day at once: its delay and hysteresis start from
  // the stream's recent noise (issue 30 item 2), and "try this rule" shows what they would do.
  const trial = useTrialHistory(draft.streamId, !editing && draft.kind === 'limit');
  const suggestion = useMemo(
    () => (editing || !trial.ready ? undefined : suggestAlarmTuning(trial.points)),
    [editing, trial.ready, trial.points],
  );
  const typedTuning = touched.has('delay_s') || touched.has('hysteresis');
  useEffect(() => {
    if (suggestion === undefined || typedTuning) return;
    setDraft((d) => ({
      ...d,
      delay: String(suggestion.delay_s),
      hysteresis: String(suggestion.hysteresis),
    }));
  }, [suggestion, typedTuning]);

  const checked = checkDraft(
    draft,
    stream === null ? null : { type: stream.attributes.type, unit: stream.attributes.unit },
  );
  const shown = (field: string): string | undefined => {
    const text =
      serverErrors[field as keyof DraftErrors] ??
      (submitted || touched.has(field) ? checked.errors[field as keyof DraftErrors] : undefined);
    return text === undefined ? undefined : alarmText(i18n, text);
  };
  const set = (field: string, patch: Partial<AlarmDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setTouched((s) => new Set(s).add(field));
    setServerErrors((e) => {
      if (!(field in e)) return e;
      const next = { ...e };
      delete next[field as keyof DraftErrors];
      return next;
    });
  };
  // A recipient's channel on or off; the channels keep their order.
  const toggleChannel = (index: number, channel: AlarmChannel) =>
    set('recipients', {
      recipients: draft.recipients.map((r, i) => {
        if (i !== index) return r;
        const channels = r.channels.includes(channel)
          ? r.channels.filter((c) => c !== channel)
          : ALARM_CHANNELS.filter((c) => c === channel || r.channels.includes(c));
        return { ...r, channels };
      }),
    });

  const save = async () => {
    setSubmitted(true);
    setFormError(null);
    if (checked.attributes === null) {
      const first = [...DRAFT_FIELDS, ...Object.keys(checked.errors)].find(
        (f) => checked.errors[f as keyof DraftErrors] !== undefined,
      );
      form.current?.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus();
      return;
    }
    const writes = syncWorker().writes;
    // The status is the server's; shelving has its own buttons (an edit keeps a running shelf).
    const attributes = { ...checked.attributes };
    delete attributes.status;
    delete attributes.shelved_until;
    if (props.alarm === undefined) {
      const id = uuidv7();
      const answer = await writes.create('alarm', attributes, id);
      if ('error' in answer) return showWorkerError(answer.error);
      waitOrClose(id);
    } else {
      // Only what the user changed from the alarm as the form opened: a field another user
      // changed meanwhile keeps that change.
      const change = changedFields(attributes, base ?? {});
      if (Object.keys(change).length === 0) return props.onDone(props.alarm.id);
      const answer = await writes.update('alarm', props.alarm.id, change);
      if ('error' in answer) return showWorkerError(answer.error);
      waitOrClose(props.alarm.id);
    }
  };

  const limit = draft.kind === 'limit';
  return (
    <form
      ref={form}
      noValidate
      data-testid="alarm-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <Stack gap="sm">
        {editing || props.stream !== undefined ? null : (
          <StreamPickers
            draft={draft}
            errors={{ asset: shown('asset_id'), stream: shown('datastream_id') }}
            onAsset={(assetId) => set('asset_id', { assetId, streamId: '' })}
            onStream={(streamId) => set('datastream_id', { streamId })}
          />
        )}
        {shown('datastream_id') !== undefined && (editing || props.stream !== undefined) ? (
          <Text c="red" size="sm" role="alert">
            {shown('datastream_id')}
          </Text>
        ) : null}
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
            label={t`Kind`}
            value={draft.kind}
            onChange={(e) => {
              const kind = ALARM_KINDS.find((k) => k === e.currentTarget.value);
              if (kind !== undefined) set('kind', { kind });
            }}
            data={ALARM_KINDS.map((k) => ({ value: k, label: kindLabel(i18n, k) }))}
            error={shown('kind')}
            data-field="kind"
          />
          {limit ? (
            <>
              <NativeSelect
                label={t`Condition`}
                value={draft.condition}
                onChange={(e) => {
                  const condition = ALARM_CONDITIONS.find((c) => c === e.currentTarget.value);
                  if (condition !== undefined) set('condition', { condition });
                }}
                data={ALARM_CONDITIONS.map((c) => ({ value: c, label: conditionLabel(i18n, c) }))}
                error={shown('condition')}
                data-field="condition"
              />
              <TextInput
                label={t`Unit`}
                value={draft.unit}
                onChange={(e) => set('unit', { unit: e.currentTarget.value })}
                error={shown('unit')}
                data-field="unit"
              />
              <TextInput
                label={t`Upper limit`}
                inputMode="decimal"
                value={draft.upper}
                onChange={(e) => set('upper_limit', { upper: e.currentTarget.value })}
                error={shown('upper_limit')}
                data-field="upper_limit"
              />
              <TextInput
                label={t`Lower limit`}
                inputMode="decimal"
                value={draft.lower}
                onChange={(e) => set('lower_limit', { lower: e.currentTarget.value })}
                error={shown('lower_limit')}
                data-field="lower_limit"
              />
              <TextInput
                label={t`Delay (seconds)`}
                description={t`How long the condition must hold before the alarm fires.`}
                inputMode="numeric"
                value={draft.delay}
                onChange={(e) => set('delay_s', { delay: e.currentTarget.value })}
                error={shown('delay_s')}
                data-field="delay_s"
              />
              <TextInput
                label={t`Hysteresis`}
                description={t`How far back past the limit the value must go before the alarm clears.`}
                inputMode="decimal"
                value={draft.hysteresis}
                onChange={(e) => set('hysteresis', { hysteresis: e.currentTarget.value })}
                error={shown('hysteresis')}
                data-field="hysteresis"
              />
              {editing ? null : (
                <SuggestionHint
                  suggestion={suggestion}
                  ready={trial.ready}
                  unit={draft.unit}
                  typed={typedTuning}
                />
              )}
              <div style={{ gridColumn: '1 / -1' }}>
                <TryRule streamId={draft.streamId} rule={checked.rule} trial={trial} />
              </div>
            </>
          ) : (
            <TextInput
              label={t`After (minutes)`}
              inputMode="numeric"
              value={draft.afterMin}
              onChange={(e) => set('after_s', { afterMin: e.currentTarget.value })}
              error={shown('after_s')}
              data-field="after_s"
            />
          )}
          <TextInput
            label={t`At most one message every (minutes)`}
            description={t`Per recipient while the alarm flaps; the state changes in between follow in one message with their count. 0: every change at once.`}
            inputMode="numeric"
            value={draft.notifyEvery}
            onChange={(e) => set('notify_interval_min', { notifyEvery: e.currentTarget.value })}
            error={shown('notify_interval_min')}
            data-field="notify_interval_min"
          />
          <TextInput
            label={t`Help article (number)`}
            description={t`The help centre article that says what to do, as in help/136. Empty: none.`}
            inputMode="numeric"
            value={draft.helpArticle}
            onChange={(e) => set('help_article', { helpArticle: e.currentTarget.value })}
            error={shown('help_article')}
            data-field="help_article"
          />
          <NativeSelect
            label={t`Severity`}
            value={draft.severity}
            onChange={(e) => {
              const severity = ALARM_SEVERITIES.find((s) => s === e.currentTarget.value);
              if (severity !== undefined) set('severity', { severity });
            }}
            data={ALARM_SEVERITIES.map((s) => ({ value: s, label: severityLabel(i18n, s) }))}
            data-field="severity"
          />
        </SimpleGrid>
        <Switch
          label={t`Enabled`}
          checked={draft.enabled}
          onChange={(e) => set('enabled', { enabled: e.currentTarget.checked })}
          data-testid="alarm-form-enabled"
        />
        <RecipientsEditor
          recipients={draft.recipients}
          error={shown('recipients')}
          rowError={(i) => shown(`recipients.${i}`)}
          onChange={(recipients) => set('recipients', { recipients })}
          make={(who): DraftRecipient => ({ ...who, channels: ['mail'] })}
          empty={<Trans>Nobody is told yet: add users of the account or email addresses.</Trans>}
          testId="alarm-recipients"
          columns={ALARM_CHANNELS.map((c) => ({
            key: c,
            header: channelLabel(i18n, c),
            cell: (r: DraftRecipient, i: number, whoText: string) => (
              <Checkbox
                aria-label={t`${channelLabel(i18n, c)} for ${{ whoText: isolate(whoText) }}`}
                checked={r.channels.includes(c)}
                onChange={() => toggleChannel(i, c)}
              />
            ),
          }))}
          translate={(text) => alarmText(i18n, text)}
        />
        {formError === null ? null : (
          <Alert color="red" role="alert" data-testid="alarm-form-error">
            {formError}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => props.onDone(null)}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" loading={waitingFor !== null} data-testid="alarm-form-save">
            {editing ? <Trans>Save alarm</Trans> : <Trans>Create alarm</Trans>}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Where a new alarm's delay and hysteresis came from (issue 30 item 2): the stream's recent
 * values, how often they come and how much they move from one to the next.
 */
function SuggestionHint(props: {
  readonly suggestion: AlarmTuning | undefined;
  readonly ready: boolean;
  readonly unit: string;
  readonly typed: boolean;
}) {
  const { i18n } = useLingui();
  const s = props.suggestion;
  if (!props.ready) return null;
  if (s === undefined)
    return (
      <Text size="sm" c="dimmed" data-testid="alarm-suggestion" style={{ gridColumn: '1 / -1' }}>
        <Trans>Too few recent values of this data stream to suggest a delay and hysteresis.</Trans>
      </Text>
    );
  const points = s.points;
  const interval = i18n.number(s.intervalS, { maximumSignificantDigits: 3 });
  const step = `${i18n.number(s.typicalStep, { maximumSignificantDigits: 2 })}${props.unit === '' ? '' : ` ${props.unit}`}`;
  const delay = s.delay_s;
  const hysteresis = i18n.number(s.hysteresis);
  return (
    <Text
      size="sm"
      c="dimmed"
      data-testid="alarm-suggestion"
      data-delay={s.delay_s}
      data-hysteresis={s.hysteresis}
      style={{ gridColumn: '1 / -1' }}
    >
      {props.typed ? (
        <Trans>
          Suggested from the last {points} values (a value every {interval} s, moving by {step} from
          one to the next): a delay of {delay} s and a hysteresis of {hysteresis}.
        </Trans>
      ) : (
        <Trans>
          Prefilled from the last {points} values of this data stream: a value every {interval} s,
          moving by {step} from one to the next (median). The delay is three intervals, the
          hysteresis three such steps.
        </Trans>
      )}
    </Text>
  );
}

/** A new alarm's asset and stream, from the local store (streams of numbers or states). */
function StreamPickers(props: {
  readonly draft: AlarmDraft;
  readonly errors: { readonly asset: string | undefined; readonly stream: string | undefined };
  readonly onAsset: (id: string) => void;
  readonly onStream: (id: string) => void;
}) {
  const { t } = useLingui();
  const assets = useLiveQuery({ type: 'asset', limit: 1000 });
  const streams = useLiveQuery(
    props.draft.assetId === ''
      ? null
      : {
          type: 'datastream',
          search: { text: props.draft.assetId, fields: ['asset_id'] },
          limit: 1000,
        },
  );
  const numeric = (streams?.items ?? []).filter(
    (s) =>
      s.attributes.asset_id === props.draft.assetId &&
      (s.attributes.type === 'number' || s.attributes.type === 'state'),
  );
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <NativeSelect
        label={t`Asset`}
        required
        value={props.draft.assetId}
        onChange={(e) => props.onAsset(e.currentTarget.value)}
        data={[
          { value: '', label: t`Choose an asset` },
          ...(assets?.items ?? []).map((a) => ({ value: a.id, label: a.attributes.name })),
        ]}
        error={props.errors.asset}
        data-field="asset_id"
      />
      <NativeSelect
        label={t`Data stream`}
        required
        disabled={props.draft.assetId === ''}
        value={props.draft.streamId}
        onChange={(e) => props.onStream(e.currentTarget.value)}
        data={[
          { value: '', label: t`Choose a data stream` },
          ...numeric.map((s) => ({ value: s.id, label: s.attributes.name })),
        ]}
        error={props.errors.stream}
        data-field="datastream_id"
      />
    </SimpleGrid>
  );
}
