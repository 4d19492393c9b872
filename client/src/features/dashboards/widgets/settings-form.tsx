import { useId, useMemo, useState, type FormEvent } from 'react';
import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  MultiSelect,
  NumberInput,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import {
  BAR_AGGREGATES,
  BAR_BUCKETS,
  WIDGET_OPTION_TEXTS,
  WIDGET_STREAM_LIMITS,
  widgetOptions,
  widgetOptionsSchemas,
  type DashboardWidget,
  type WidgetType,
} from '@plant/shared-schema';
import { translateServerText } from '../../../i18n/server-texts';
import { WIDGET_LABELS, type StreamChoice } from './index';
import { settingsProblems, type SettingsDraft } from './settings-rules';

/*
 * A widget's settings (issue 31 item 2): its title, its streams (only those the dashboard offers:
 * the streams the user sees), and its type's options, checked by the type's shared schema (the
 * server checks the same on the dashboard's write). Every field has a label; a problem is named
 * at its field and the first field in trouble gets the focus; nothing typed is lost on an error.
 */

/*
 * The shared option checks' texts (shared-schema widget-options-texts.ts) are translated here, not
 * in i18n/server-texts.ts: that table is in every page's first visit, and these are only ever
 * shown by this form (the form checks what the server would refuse).
 */
const OPTION_TEXTS: Record<string, MessageDescriptor> = {
  [WIDGET_OPTION_TEXTS.minBelowMax]: msg`The minimum must be below the maximum.`,
  [WIDGET_OPTION_TEXTS.decimals]: msg`Between 0 and 6 decimals.`,
  [WIDGET_OPTION_TEXTS.textTooLong]: msg`At most 2,000 characters.`,
  [WIDGET_OPTION_TEXTS.oneStream]: msg`This widget shows one data stream.`,
  [WIDGET_OPTION_TEXTS.noStreams]: msg`This widget shows no data streams.`,
  'choose-stream': msg`Choose a data stream.`,
  'too-many-streams': msg`A widget may show at most 12 data streams.`,
  'not-a-number': msg`Enter a number.`,
};

const BUCKET_LABELS: Record<(typeof BAR_BUCKETS)[number], MessageDescriptor> = {
  hour: msg`Per hour`,
  day: msg`Per day`,
  week: msg`Per week`,
};
const AGGREGATE_LABELS: Record<(typeof BAR_AGGREGATES)[number], MessageDescriptor> = {
  avg: msg`Average`,
  min: msg`Minimum`,
  max: msg`Maximum`,
};

/** A number field's text as the draft keeps it ('' for none). */
function numberText(value: number | null | undefined): string {
  return value === null || value === undefined ? '' : String(value);
}

export default function SettingsForm(props: {
  readonly type: WidgetType;
  readonly widget: DashboardWidget | null;
  readonly streams: readonly StreamChoice[];
  readonly onSave: (widget: Pick<DashboardWidget, 'title' | 'streams' | 'options'>) => void;
  readonly onCancel: () => void;
}) {
  const { t, i18n } = useLingui();
  const { type, widget } = props;
  const limits = WIDGET_STREAM_LIMITS[type];
  const formId = useId();
  const offered = useMemo(() => new Set(props.streams.map((s) => s.id)), [props.streams]);
  // Streams of the widget the user may not see: kept as they are, never shown.
  const unseen = (widget?.streams ?? []).filter((id) => !offered.has(id));
  const start = widgetOptions(type, widget?.options ?? {}) as Record<string, unknown>;
  const [draft, setDraft] = useState<SettingsDraft>(() => ({
    title: widget?.title ?? '',
    streams: (widget?.streams ?? []).filter((id) => offered.has(id)),
    min: numberText(start.min as number | null | undefined),
    max: numberText(start.max as number | null | undefined),
    decimals: numberText(start.decimals as number | null | undefined),
    bucket: (start.bucket as string | undefined) ?? 'hour',
    aggregate: (start.aggregate as string | undefined) ?? 'avg',
    raisedOnly: start.raised_only === true,
    text: (start.text as string | undefined) ?? '',
  }));
  const [problems, setProblems] = useState<Readonly<Record<string, string>>>({});
  const set = <K extends keyof SettingsDraft>(key: K, value: SettingsDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));
  const problem = (field: string) => {
    const p = problems[field];
    if (p === undefined) return undefined;
    const text = OPTION_TEXTS[p];
    // The shared schemas' texts (the server's too) translate in one table.
    return text === undefined ? translateServerText(i18n, p) : i18n._(text);
  };

  const data = useMemo(() => {
    const groups = new Map<string, { value: string; label: string }[]>();
    for (const s of props.streams) {
      const group = `${s.assetName} · ${s.groupName}`;
      const list = groups.get(group) ?? [];
      list.push({ value: s.id, label: s.unit === '' ? s.name : `${s.name} (${s.unit})` });
      groups.set(group, list);
    }
    return [...groups].map(([group, items]) => ({ group, items }));
  }, [props.streams]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = settingsProblems(type, draft, unseen.length, widgetOptionsSchemas[type]);
    setProblems(checked.problems);
    if (checked.options === null) {
      const first = Object.keys(checked.problems)[0];
      if (first !== undefined) document.getElementById(`${formId}-${first}`)?.focus();
      return;
    }
    props.onSave({
      title: draft.title.trim() === '' ? null : draft.title.trim(),
      streams: [...unseen, ...draft.streams],
      options: checked.options,
    });
  };

  const numberField = (key: 'min' | 'max' | 'decimals', label: string, description?: string) => (
    <NumberInput
      id={`${formId}-${key}`}
      label={label}
      {...(description === undefined ? {} : { description })}
      value={draft[key]}
      onChange={(v) => set(key, String(v))}
      error={problem(key)}
      allowDecimal={key !== 'decimals'}
      {...(key === 'decimals' ? { min: 0, max: 6 } : {})}
      data-testid={`widget-settings-${key}`}
    />
  );

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={t`Settings of the widget: ${i18n._(WIDGET_LABELS[type])}`}
      data-testid="widget-settings-form"
    >
      <Stack gap="sm">
        {Object.keys(problems).length > 0 ? (
          <Alert color="red" role="alert" data-testid="widget-settings-problem">
            <Trans>Please correct the marked fields.</Trans>
          </Alert>
        ) : null}
        <TextInput
          id={`${formId}-title`}
          label={t`Title`}
          value={draft.title}
          maxLength={120}
          onChange={(e) => set('title', e.currentTarget.value)}
          data-testid="widget-settings-title"
        />
        {limits.max === 0 ? null : limits.max === 1 ? (
          <Select
            id={`${formId}-streams`}
            label={t`Data stream`}
            placeholder={t`Choose a data stream`}
            data={data}
            value={draft.streams[0] ?? null}
            onChange={(v) => set('streams', v === null ? [] : [v])}
            searchable
            nothingFoundMessage={t`No data stream found`}
            required
            error={problem('streams')}
            data-testid="widget-settings-streams"
          />
        ) : (
          <MultiSelect
            id={`${formId}-streams`}
            label={t`Data streams`}
            description={t`Up to ${limits.max} data streams.`}
            placeholder={draft.streams.length === 0 ? t`Choose data streams` : undefined}
            data={data}
            value={[...draft.streams]}
            onChange={(v) => set('streams', v)}
            searchable
            maxValues={limits.max - unseen.length}
            nothingFoundMessage={t`No data stream found`}
            required
            error={problem('streams')}
            data-testid="widget-settings-streams"
          />
        )}
        {unseen.length > 0 ? (
          <Text size="xs" c="dimmed" data-testid="widget-settings-unseen">
            {t`${plural(unseen.length, {
              one: 'This widget also shows # data stream you may not see; it stays.',
              other: 'This widget also shows # data streams you may not see; they stay.',
            })}`}
          </Text>
        ) : null}

        {type === 'line' || type === 'gauge' ? (
          <Group grow align="flex-start">
            {numberField(
              'min',
              t`Minimum`,
              type === 'gauge' ? t`Empty: the data stream's` : t`Empty: automatic`,
            )}
            {numberField(
              'max',
              t`Maximum`,
              type === 'gauge' ? t`Empty: the data stream's` : t`Empty: automatic`,
            )}
          </Group>
        ) : null}
        {type === 'value' || type === 'gauge' || type === 'table'
          ? numberField('decimals', t`Decimals`, t`Empty: as elsewhere in the app`)
          : null}
        {type === 'bar' ? (
          <Group grow align="flex-start">
            <Select
              id={`${formId}-bucket`}
              label={t`Bars`}
              data={BAR_BUCKETS.map((b) => ({ value: b, label: i18n._(BUCKET_LABELS[b]) }))}
              value={draft.bucket}
              onChange={(v) => set('bucket', v ?? 'hour')}
              allowDeselect={false}
              data-testid="widget-settings-bucket"
            />
            <Select
              id={`${formId}-aggregate`}
              label={t`Each bar shows`}
              data={BAR_AGGREGATES.map((a) => ({ value: a, label: i18n._(AGGREGATE_LABELS[a]) }))}
              value={draft.aggregate}
              onChange={(v) => set('aggregate', v ?? 'avg')}
              allowDeselect={false}
              data-testid="widget-settings-aggregate"
            />
          </Group>
        ) : null}
        {type === 'alarms' ? (
          <Checkbox
            id={`${formId}-raised_only`}
            label={t`Only the alarms raised now`}
            checked={draft.raisedOnly}
            onChange={(e) => set('raisedOnly', e.currentTarget.checked)}
            data-testid="widget-settings-raised-only"
          />
        ) : null}
        {type === 'text' ? (
          <Textarea
            id={`${formId}-text`}
            label={t`Text`}
            description={t`# heading, **bold**, *italic*, - list, [link](https://…)`}
            value={draft.text}
            onChange={(e) => set('text', e.currentTarget.value)}
            autosize
            minRows={4}
            maxRows={14}
            error={problem('text')}
            data-testid="widget-settings-text"
          />
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel} data-testid="widget-settings-cancel">
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" data-testid="widget-settings-save">
            <Trans>Save</Trans>
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
