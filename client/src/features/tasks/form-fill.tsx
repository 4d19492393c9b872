import { useMemo, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Button,
  Checkbox,
  Group,
  NativeSelect,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import {
  computeEntry,
  fieldProblem,
  FORM_TEXTS,
  formText,
  readNumberInput,
  uuidv7,
  type FieldProblem,
  type FormField,
  type FormValues,
  type Language,
} from '@plant/shared-schema';
import { translateServerText } from '../../i18n/server-texts';
import { SignaturePad } from './signature-pad';
import type { DraftFile } from './drafts';
import { BlobImage } from './blob-image';

/** What a form being filled in holds: the answers, the typed texts, the photos and signature. */
export interface FillState {
  readonly values: FormValues;
  /** Number and time fields as typed (a half-typed number is not a value yet). */
  readonly texts: Readonly<Record<string, string>>;
  readonly files: Readonly<Record<string, readonly DraftFile[]>>;
}

export const EMPTY_FILL: FillState = { values: {}, texts: {}, files: {} };

/** The answers an entry stores: files as their ids, formulas computed. */
export function valuesOf(fields: readonly FormField[], state: FillState): FormValues {
  const values: FormValues = { ...state.values };
  for (const f of fields) {
    if (f.type === 'photo' || f.type === 'signature')
      values[f.id] = (state.files[f.id] ?? []).map((file) => file.id);
  }
  return computeEntry(fields, values);
}

/** A field's problem now: a half-typed number's or time's, else its answer's. */
function problemOf(field: FormField, state: FillState): FieldProblem | null {
  const text = state.texts[field.id];
  if (field.type === 'number' && text !== undefined) {
    const read = readNumberInput(field, text);
    if ('problem' in read) return read.problem;
  }
  if (field.type === 'datetime' && text !== undefined && text !== '') {
    if (!Number.isFinite(new Date(text).getTime())) return { text: FORM_TEXTS.time };
  }
  return fieldProblem(field, valuesOf([field], state)[field.id]);
}

/** Every problem of the filled-in form, by field id (the submit's check). */
export function fillProblems(
  fields: readonly FormField[],
  state: FillState,
): Record<string, FieldProblem> {
  const found: Record<string, FieldProblem> = {};
  for (const f of fields) {
    const p = problemOf(f, state);
    if (p !== null) found[f.id] = p;
  }
  return found;
}

/**
 * A form's fields to fill in (issue 37 item 2; the designer's preview too): the spec's messages as
 * the user types (after a field was left, or on every field after a try to send), camera photos,
 * a finger signature, formulas computed as the answers come.
 */
export function FormFill(props: {
  readonly fields: readonly FormField[];
  readonly state: FillState;
  readonly onChange: (next: FillState) => void;
  /** Show every field's message (after a try to send). */
  readonly showAll: boolean;
  readonly disabled?: boolean;
}) {
  const { t, i18n } = useLingui();
  const lang = i18n.locale as Language;
  const { state, onChange } = props;
  const disabled = props.disabled === true;
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [notes, setNotes] = useState<Readonly<Record<string, string>>>({});
  const computed = useMemo(() => valuesOf(props.fields, state), [props.fields, state]);
  const touch = (id: string) => setTouched((s) => (s.has(id) ? s : new Set(s).add(id)));
  const setValue = (id: string, value: FormValues[string], text?: string) => {
    touch(id);
    onChange({
      ...state,
      values: { ...state.values, [id]: value },
      texts: text === undefined ? state.texts : { ...state.texts, [id]: text },
    });
  };
  const messageOf = (field: FormField): string | null => {
    const note = notes[field.id];
    if (note !== undefined) return note;
    if (!props.showAll && !touched.has(field.id)) return null;
    const p = problemOf(field, state);
    return p === null
      ? null
      : translateServerText(i18n, p.text, p.number === undefined ? {} : { number: p.number });
  };

  return (
    <Stack gap="md" data-testid="form-fill">
      {props.fields.map((field) => {
        const label = formText(field.label, lang);
        const error = messageOf(field);
        const common = {
          label,
          required: field.required,
          error,
          disabled,
          'data-field': field.id,
        } as const;
        switch (field.type) {
          case 'text':
            return field.multiline ? (
              <Textarea
                key={field.id}
                {...common}
                autosize
                minRows={2}
                value={
                  typeof state.values[field.id] === 'string'
                    ? (state.values[field.id] as string)
                    : ''
                }
                onChange={(e) => setValue(field.id, e.currentTarget.value)}
                onBlur={() => touch(field.id)}
              />
            ) : (
              <TextInput
                key={field.id}
                {...common}
                value={
                  typeof state.values[field.id] === 'string'
                    ? (state.values[field.id] as string)
                    : ''
                }
                onChange={(e) => setValue(field.id, e.currentTarget.value)}
                onBlur={() => touch(field.id)}
              />
            );
          case 'number': {
            const text =
              state.texts[field.id] ??
              (typeof state.values[field.id] === 'number' ? String(state.values[field.id]) : '');
            return (
              <TextInput
                key={field.id}
                {...common}
                inputMode="decimal"
                rightSection={field.unit === '' ? undefined : <Text size="xs">{field.unit}</Text>}
                value={text}
                onChange={(e) => {
                  const typed = e.currentTarget.value;
                  const read = readNumberInput(field, typed);
                  setValue(field.id, 'value' in read ? read.value : null, typed);
                }}
                onBlur={() => touch(field.id)}
              />
            );
          }
          case 'formula': {
            const v = computed[field.id];
            return (
              <TextInput
                key={field.id}
                {...common}
                readOnly
                required={false}
                description={t`Computed`}
                rightSection={field.unit === '' ? undefined : <Text size="xs">{field.unit}</Text>}
                value={typeof v === 'number' ? String(Math.round(v * 1e6) / 1e6) : '–'}
              />
            );
          }
          case 'select':
            return (
              <NativeSelect
                key={field.id}
                {...common}
                value={
                  typeof state.values[field.id] === 'string'
                    ? (state.values[field.id] as string)
                    : ''
                }
                onChange={(e) =>
                  setValue(field.id, e.currentTarget.value === '' ? null : e.currentTarget.value)
                }
                data={[
                  { value: '', label: t`Choose…` },
                  ...field.options.map((o) => ({ value: o.id, label: formText(o.label, lang) })),
                ]}
              />
            );
          case 'multiselect': {
            const chosen = Array.isArray(state.values[field.id])
              ? (state.values[field.id] as string[])
              : [];
            return (
              <Checkbox.Group
                key={field.id}
                label={label}
                required={field.required}
                error={error}
                data-field={field.id}
                value={chosen}
                onChange={(next) => {
                  // Over the limit: the earliest choice goes, and the user is told so.
                  let kept = next;
                  const most = field.max_selections;
                  if (most !== null && next.length > most) {
                    kept = next.slice(next.length - most);
                    setNotes((n) => ({
                      ...n,
                      [field.id]: translateServerText(i18n, FORM_TEXTS.multiple),
                    }));
                  } else
                    setNotes((n) =>
                      Object.fromEntries(Object.entries(n).filter(([id]) => id !== field.id)),
                    );
                  setValue(field.id, kept);
                }}
              >
                <Group gap="md" mt={4}>
                  {field.options.map((o) => (
                    <Checkbox
                      key={o.id}
                      value={o.id}
                      label={formText(o.label, lang)}
                      disabled={disabled}
                    />
                  ))}
                </Group>
              </Checkbox.Group>
            );
          }
          case 'checkbox':
            return (
              <Checkbox
                key={field.id}
                label={label}
                required={field.required}
                error={error}
                disabled={disabled}
                data-field={field.id}
                checked={state.values[field.id] === true}
                onChange={(e) => setValue(field.id, e.currentTarget.checked)}
              />
            );
          case 'datetime': {
            const v = state.values[field.id];
            const text = state.texts[field.id] ?? (typeof v === 'number' ? localInput(v) : '');
            return (
              <TextInput
                key={field.id}
                {...common}
                type="datetime-local"
                value={text}
                onChange={(e) => {
                  const typed = e.currentTarget.value;
                  const ms = new Date(typed).getTime();
                  setValue(field.id, typed === '' || !Number.isFinite(ms) ? null : ms, typed);
                }}
                onBlur={() => touch(field.id)}
              />
            );
          }
          case 'photo':
            return (
              <PhotoField
                key={field.id}
                label={label}
                required={field.required}
                error={error}
                disabled={disabled}
                max={field.max_files}
                fieldId={field.id}
                files={state.files[field.id] ?? []}
                onFiles={(files) => {
                  touch(field.id);
                  onChange({ ...state, files: { ...state.files, [field.id]: files } });
                }}
              />
            );
          case 'signature': {
            const signed = state.files[field.id]?.[0] ?? null;
            return (
              <Stack key={field.id} gap={2} data-field={field.id}>
                <SignaturePad
                  label={field.required ? `${label} *` : label}
                  signed={signed?.blob ?? null}
                  disabled={disabled}
                  onSigned={(png) => {
                    touch(field.id);
                    onChange({
                      ...state,
                      files: {
                        ...state.files,
                        [field.id]:
                          png === null
                            ? []
                            : [{ id: signed?.id ?? uuidv7(), name: 'signature.png', blob: png }],
                      },
                    });
                  }}
                />
                {error === null ? null : (
                  <Text size="xs" c="red" role="alert">
                    {error}
                  </Text>
                )}
              </Stack>
            );
          }
        }
      })}
    </Stack>
  );
}

/** A time as a datetime-local input shows it (the browser's time zone). */
function localInput(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${String(d.getFullYear())}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Photos from the tablet's camera (or its pictures), shown as thumbnails, each removable. */
function PhotoField(props: {
  readonly label: string;
  readonly required: boolean;
  readonly error: string | null;
  readonly disabled: boolean;
  readonly max: number;
  readonly fieldId: string;
  readonly files: readonly DraftFile[];
  readonly onFiles: (files: readonly DraftFile[]) => void;
}) {
  const { t } = useLingui();
  const inputId = `photo-${props.fieldId}`;
  return (
    <Stack gap={4} data-field={props.fieldId}>
      <Text component="label" htmlFor={inputId} size="sm" fw={500}>
        {props.label}
        {props.required ? ' *' : ''}
      </Text>
      <Group gap="xs">
        {props.files.map((file, i) => (
          <Stack key={file.id} gap={2} align="center">
            <BlobImage blob={file.blob} alt={t`Photo ${i + 1}`} />
            <Button
              size="compact-xs"
              variant="subtle"
              disabled={props.disabled}
              onClick={() => props.onFiles(props.files.filter((f) => f.id !== file.id))}
            >
              <Trans>Remove</Trans>
            </Button>
          </Stack>
        ))}
      </Group>
      {props.files.length < props.max ? (
        <input
          id={inputId}
          type="file"
          accept="image/*"
          capture="environment"
          disabled={props.disabled}
          data-testid="photo-input"
          onChange={(e) => {
            const chosen = Array.from(e.currentTarget.files ?? []);
            e.currentTarget.value = '';
            const added = chosen
              .slice(0, props.max - props.files.length)
              .map((blob) => ({ id: uuidv7(), name: blob.name || 'photo.jpg', blob }));
            props.onFiles([...props.files, ...added]);
          }}
        />
      ) : null}
      {props.error === null ? null : (
        <Text size="xs" c="red" role="alert">
          {props.error}
        </Text>
      )}
    </Stack>
  );
}
