import { useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import {
  apiPaths,
  DATASTREAM_TYPES,
  datastreamAttributesSchema,
  fieldErrorsOf,
  preprocessingTryAnswerSchema,
  type DatastreamAttributes,
  type ModelInput,
} from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { syncWorker } from '../../sync/worker';
import { streamTypeLabel } from './asset-texts';
import { changedFields } from '../../components/changed-fields';

/**
 * A data stream's definition (spec 001 §3, §5): name, unit, type, visualisation minimum and
 * maximum, state texts (state streams), pre-processing code. Checked by the shared schema (the
 * server applies the same); saved through the worker, so it works offline and shows as pending.
 * The code can be tried on the stream's latest value (or one typed in) before saving: that needs
 * the server, whose sandbox runs it.
 */
export const NOT_A_NUMBER_OR_EMPTY = 'Must be a numerical value or empty';
export const MIN_NOT_BELOW_MAX = 'The minimum must be below the maximum';

interface Draft {
  name: string;
  unit: string;
  type: DatastreamAttributes['type'];
  visMin: string;
  visMax: string;
  states: { value: string; text: string }[];
  code: string;
  /** The number of the help article it links ('' for none). */
  helpArticle: string;
}

function draftOf(stream: LocalModel<'datastream'>): Draft {
  const a = stream.attributes;
  const num = (v: number | null) => (v === null ? '' : String(v));
  return {
    name: a.name,
    unit: a.unit,
    type: a.type,
    visMin: num(a.vis_min),
    visMax: num(a.vis_max),
    states: Object.entries(a.state_texts).map(([value, text]) => ({ value, text })),
    code: a.preprocessing,
    helpArticle: num(a.help_article),
  };
}

type Errors = Partial<Record<string, string>>;

/** The draft as attributes, or the message per field (shared schema plus the form's own). */
function check(
  draft: Draft,
): { attributes: Partial<ModelInput<'datastream'>> } | { errors: Errors } {
  const errors: Errors = {};
  const number = (text: string, field: string): number | null => {
    if (text.trim() === '') return null;
    const n = Number(text.replace(',', '.'));
    if (!Number.isFinite(n)) {
      errors[field] = NOT_A_NUMBER_OR_EMPTY;
      return null;
    }
    return n;
  };
  const visMin = number(draft.visMin, 'vis_min');
  const visMax = number(draft.visMax, 'vis_max');
  const helpArticle = number(draft.helpArticle, 'help_article');
  if (visMin !== null && visMax !== null && visMin >= visMax) errors.vis_max = MIN_NOT_BELOW_MAX;
  const stateTexts: Record<string, string> = {};
  draft.states.forEach((s, i) => {
    if (s.value.trim() === '' && s.text.trim() === '') return;
    if (!Number.isInteger(Number(s.value)) || s.value.trim() === '') {
      errors[`state_${i}`] = 'Must be a number';
      return;
    }
    stateTexts[String(Number(s.value))] = s.text;
  });
  const attributes = {
    name: draft.name,
    unit: draft.unit,
    type: draft.type,
    vis_min: visMin,
    vis_max: visMax,
    state_texts: draft.type === 'state' ? stateTexts : {},
    preprocessing: draft.code,
    help_article: helpArticle,
  };
  const parsed = datastreamAttributesSchema
    .pick({
      name: true,
      unit: true,
      type: true,
      vis_min: true,
      vis_max: true,
      state_texts: true,
      preprocessing: true,
      help_article: true,
    })
    .safeParse(attributes);
  if (!parsed.success) {
    for (const [field, messages] of Object.entries(fieldErrorsOf(parsed.error))) {
      errors[field] ??= messages[0];
    }
    return { errors };
  }
  return Object.keys(errors).length > 0 ? { errors } : { attributes: parsed.data };
}

const FIELD_ORDER = [
  'name',
  'unit',
  'type',
  'vis_min',
  'vis_max',
  'help_article',
  'state_texts',
  'preprocessing',
];

export function StreamForm({
  stream,
  onDone,
}: {
  readonly stream: LocalModel<'datastream'>;
  readonly onDone: () => void;
}) {
  const { t, i18n } = useLingui();
  const [draft, setDraft] = useState<Draft>(() => draftOf(stream));
  // The stream as the form opened (its checked attributes), then as each save left it: a save
  // writes only what the user changed from it (another user's change meanwhile stays).
  const [base, setBase] = useState(() => {
    const checked = check(draftOf(stream));
    return 'attributes' in checked ? checked.attributes : {};
  });
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const tr = (text: string | undefined) =>
    text === undefined ? undefined : translateServerText(i18n, text);
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));

  const save = async () => {
    const checked = check(draft);
    if ('errors' in checked) {
      setErrors(checked.errors);
      // The first field with a message gets the focus (keyboard and screen-reader users).
      const first = [...FIELD_ORDER, ...Object.keys(checked.errors)].find((f) => checked.errors[f]);
      form.current?.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus();
      return;
    }
    setErrors({});
    const change = changedFields(checked.attributes, base);
    if (Object.keys(change).length === 0) {
      onDone();
      return;
    }
    setSaving(true);
    const result = await syncWorker().writes.update('datastream', stream.id, change);
    setSaving(false);
    if ('error' in result) {
      const fields = result.error.fields ?? {};
      setErrors(
        Object.keys(fields).length > 0
          ? Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v[0]]))
          : { form: result.error.message },
      );
      return;
    }
    setBase((was) => ({ ...was, ...change }));
    onDone();
  };

  return (
    <Paper withBorder p="md" radius="sm" data-testid="stream-form">
      <form
        ref={form}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <Stack gap="sm">
          <Title order={2} size="h4">
            <Trans>Data stream definition</Trans>
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t`Name`}
              required
              value={draft.name}
              onChange={(e) => set({ name: e.currentTarget.value })}
              error={tr(errors.name)}
              data-field="name"
            />
            <TextInput
              label={t`Unit`}
              value={draft.unit}
              onChange={(e) => set({ unit: e.currentTarget.value })}
              error={tr(errors.unit)}
              data-field="unit"
            />
            <Select
              label={t`Type`}
              value={draft.type}
              allowDeselect={false}
              onChange={(v) => {
                const type = DATASTREAM_TYPES.find((x) => x === v);
                if (type !== undefined) set({ type });
              }}
              data={DATASTREAM_TYPES.map((type) => ({
                value: type,
                label: streamTypeLabel(i18n, type),
              }))}
              error={tr(errors.type)}
              data-field="type"
            />
            <div />
            <TextInput
              label={t`Visualization minimum`}
              inputMode="decimal"
              value={draft.visMin}
              onChange={(e) => set({ visMin: e.currentTarget.value })}
              error={tr(errors.vis_min)}
              data-field="vis_min"
            />
            <TextInput
              label={t`Visualization maximum`}
              inputMode="decimal"
              value={draft.visMax}
              onChange={(e) => set({ visMax: e.currentTarget.value })}
              error={tr(errors.vis_max)}
              data-field="vis_max"
            />
            <TextInput
              label={t`Help article (number)`}
              description={t`The help centre article about this stream, as in help/136. Empty: none.`}
              inputMode="numeric"
              value={draft.helpArticle}
              onChange={(e) => set({ helpArticle: e.currentTarget.value })}
              error={tr(errors.help_article)}
              data-field="help_article"
            />
          </SimpleGrid>
          {draft.type === 'state' ? (
            <StateTexts
              states={draft.states}
              errors={errors}
              onChange={(states) => set({ states })}
            />
          ) : null}
          <Textarea
            label={t`Pre-processing code`}
            description={t`Statements end with a semicolon, variables start with $, the code ends by returning a value. $value is the value read.`}
            autosize
            minRows={3}
            value={draft.code}
            onChange={(e) => set({ code: e.currentTarget.value })}
            error={tr(errors.preprocessing)}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            data-field="preprocessing"
          />
          <CodeTrial streamId={stream.id} code={draft.code} />
          {errors.form === undefined ? null : (
            <Alert color="red" role="alert">
              {tr(errors.form)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onDone}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" loading={saving} data-testid="stream-form-save">
              <Trans>Save</Trans>
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function StateTexts({
  states,
  errors,
  onChange,
}: {
  readonly states: readonly { value: string; text: string }[];
  readonly errors: Errors;
  readonly onChange: (states: { value: string; text: string }[]) => void;
}) {
  const { t, i18n } = useLingui();
  const change = (i: number, patch: Partial<{ value: string; text: string }>) =>
    onChange(states.map((s, k) => (k === i ? { ...s, ...patch } : s)));
  return (
    <Stack gap={6} data-testid="state-texts">
      <Text size="sm" fw={500}>
        <Trans>State texts</Trans>
      </Text>
      {states.map((s, i) => {
        const n = i + 1;
        return (
          <Group key={i} gap="xs" align="flex-start" wrap="nowrap">
            <TextInput
              aria-label={t`State value ${n}`}
              placeholder={t`Value`}
              w={100}
              inputMode="numeric"
              value={s.value}
              onChange={(e) => change(i, { value: e.currentTarget.value })}
              error={
                errors[`state_${i}`] === undefined
                  ? undefined
                  : translateServerText(i18n, errors[`state_${i}`] ?? '')
              }
              data-field={`state_${i}`}
            />
            <TextInput
              aria-label={t`State text ${n}`}
              placeholder={t`Text`}
              style={{ flex: 1 }}
              value={s.text}
              onChange={(e) => change(i, { text: e.currentTarget.value })}
            />
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              aria-label={t`Remove state ${n}`}
              onClick={() => onChange(states.filter((_, k) => k !== i))}
            >
              ×
            </ActionIcon>
          </Group>
        );
      })}
      <Group>
        <Button
          variant="light"
          size="xs"
          onClick={() => onChange([...states, { value: String(states.length), text: '' }])}
        >
          <Trans>Add a state</Trans>
        </Button>
      </Group>
    </Stack>
  );
}

/** Tries the code on the server's sandbox: the latest value, or one typed in. */
function CodeTrial({ streamId, code }: { readonly streamId: string; readonly code: string }) {
  const { t, i18n } = useLingui();
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<
    | { kind: 'ok'; input: unknown; output: unknown }
    | { kind: 'error'; message: string; reason: string | undefined }
    | undefined
  >();
  const tried = outcome?.kind === 'ok' ? JSON.stringify(outcome.input) : '';
  const made = outcome?.kind === 'ok' ? JSON.stringify(outcome.output) : '';
  const run = async () => {
    setBusy(true);
    const typed = value.trim();
    const asNumber = Number(typed.replace(',', '.'));
    const body: Record<string, unknown> = { code };
    if (typed !== '') body.value = Number.isFinite(asNumber) ? asNumber : typed;
    const answer = await syncWorker().http.call('POST', apiPaths.preprocessingTry(streamId), body, {
      quiet: true,
    });
    setBusy(false);
    if ('error' in answer) {
      const fields = answer.error.fields ?? {};
      setOutcome({
        kind: 'error',
        message: callErrorText(answer.error),
        reason: fields.code?.[0] ?? fields.value?.[0],
      });
      return;
    }
    const parsed = preprocessingTryAnswerSchema.safeParse(
      (answer.data as { data?: unknown } | null)?.data,
    );
    if (!parsed.success) {
      setOutcome({ kind: 'error', message: 'An unknown error occured.', reason: undefined });
      return;
    }
    setOutcome({ kind: 'ok', input: parsed.data.input[1], output: parsed.data.output });
  };
  return (
    <Group gap="xs" align="flex-end" wrap="wrap">
      <TextInput
        label={t`Try with the value`}
        placeholder={t`The latest value`}
        value={value}
        onChange={(e) => setValue(e.currentTarget.value)}
        w={180}
      />
      <Button variant="light" onClick={() => void run()} loading={busy} data-testid="code-try">
        <Trans>Try the code</Trans>
      </Button>
      <div aria-live="polite" style={{ flexBasis: '100%' }} data-testid="code-try-result">
        {outcome === undefined ? null : outcome.kind === 'ok' ? (
          <Text size="sm">
            {outcome.output === null ? (
              <Trans>{tried} is dropped (the code returns nothing).</Trans>
            ) : (
              <Trans>
                {tried} becomes {made}
              </Trans>
            )}
          </Text>
        ) : (
          <Text size="sm" c="red" role="alert">
            {translateServerText(i18n, outcome.message)}
            {outcome.reason === undefined ? '' : `: ${translateServerText(i18n, outcome.reason)}`}
          </Text>
        )}
      </div>
    </Group>
  );
}
