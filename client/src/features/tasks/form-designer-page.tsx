import './catalogues';
import { useEffect, useMemo, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  NativeSelect,
  NumberInput,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { Link, useParams } from '@tanstack/react-router';
import {
  FORM_FIELD_TYPES,
  formDesignProblems,
  formFieldSchema,
  type FormField,
  type FormFieldType,
  type FormTexts,
  type Language,
} from '@plant/shared-schema';
import { EmptyState } from '../../components/empty-state';
import { usePageState } from '../../components/page-state';
import { useUnsaved } from '../../components/unsaved';
import { useCan } from '../../permissions/permissions';
import { useLiveModel, useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { translateServerText } from '../../i18n/server-texts';
import { EMPTY_FILL, FormFill, type FillState } from './form-fill';
import { taskPaths } from './paths';
import { useFieldTypeLabels } from './field-types';

const LABEL_LANGUAGES: readonly Exclude<Language, 'plain'>[] = ['en', 'de', 'pt', 'ru'];

/** A new field of a type, with an id no other field of the form has. */
function newField(type: FormFieldType, taken: readonly FormField[], label: string): FormField {
  let n = taken.length + 1;
  while (taken.some((f) => f.id === `${type}_${String(n)}`)) n += 1;
  return formFieldSchema.parse({
    id: `${type}_${String(n)}`,
    type,
    label: { en: label },
    ...(type === 'select' || type === 'multiselect'
      ? {
          options: [
            { id: 'opt_1', label: { en: 'A' } },
            { id: 'opt_2', label: { en: 'B' } },
          ],
        }
      : {}),
  });
}

/**
 * /app/tasks/{id}/designer (issue 37 item 1): a form's fields placed, labelled per language,
 * required or not, with their limits, options and formulas; a live preview to try it; publishing
 * makes the next version, which technicians fill in (earlier entries keep theirs).
 */
export function FormDesignerPage() {
  const { id = '' }: { id?: string } = useParams({ strict: false });
  const state = useLiveModel('form', id);
  if (state.name === 'loading') return <Skeleton height={200} />;
  if (state.name === 'missing')
    return (
      <EmptyState title={<Trans>This form does not exist (any more).</Trans>}>
        <Anchor component={Link} to={taskPaths.list()}>
          <Trans>Back to the tasks</Trans>
        </Anchor>
      </EmptyState>
    );
  return <Designer form={state.model} key={state.model.id} />;
}

function Designer(props: {
  readonly form: {
    readonly id: string;
    readonly attributes: {
      readonly name: string;
      readonly description: string;
      readonly fields: readonly FormField[];
    };
  };
}) {
  const { t, i18n } = useLingui();
  const can = useCan();
  const editable = can('form::edit');
  const typeLabels = useFieldTypeLabels();
  const [name, setName] = useState(props.form.attributes.name);
  const [description, setDescription] = useState(props.form.attributes.description);
  const [fields, setFields] = useState<FormField[]>([...props.form.attributes.fields]);
  const [addType, setAddType] = useState<FormFieldType>('text');
  const [preview, setPreview] = useState<FillState>(EMPTY_FILL);
  const versions = useLiveQuery({
    type: 'form_version',
    parent: { type: 'form', id: props.form.id },
    sort: { field: 'number', direction: 'desc' },
  });
  const page = usePageState(['name', 'fields']);
  const problems = useMemo(() => formDesignProblems(fields), [fields]);
  const labelProblem = (f: FormField) =>
    formFieldSchema.safeParse(f).error?.issues[0]?.message ?? null;
  const { dirty, changed, saving } = useUnsaved();
  useEffect(() => setPreview(EMPTY_FILL), [fields]);

  const change = (next: FormField[]) => {
    setFields(next);
    changed();
  };
  const patch = (index: number, p: Partial<FormField>) =>
    change(fields.map((f, i) => (i === index ? { ...f, ...p } : f)));
  const move = (index: number, by: -1 | 1) => {
    const to = index + by;
    if (to < 0 || to >= fields.length) return;
    const next = [...fields];
    const [f] = next.splice(index, 1);
    if (f !== undefined) next.splice(to, 0, f);
    change(next);
  };

  const save = async (): Promise<boolean> => {
    const saved = saving();
    const ok = page.took(
      await syncWorker().writes.update('form', props.form.id, { name, description, fields }),
    );
    if (ok) saved();
    return ok;
  };
  const publish = async () => {
    if (fields.length === 0) {
      page.fail(t`A form needs at least one field.`);
      return;
    }
    if (!(await save())) return;
    page.took(
      await syncWorker().writes.create('form_version', {
        form_id: props.form.id,
        name,
        fields,
      }),
      'write',
    );
  };
  const latest = versions?.items[0]?.attributes.number ?? 0;

  return (
    <Stack gap="md" data-testid="form-designer">
      <Group justify="space-between" align="flex-end">
        <Title order={1}>
          <Trans>Form designer</Trans>
        </Title>
        <Anchor component={Link} to={taskPaths.list()}>
          <Trans>All forms and tasks</Trans>
        </Anchor>
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Stack gap="sm">
          <TextInput
            label={t`Name`}
            required
            value={name}
            readOnly={!editable}
            onChange={(e) => {
              setName(e.currentTarget.value);
              changed();
            }}
            error={page.fields.name}
          />
          <Textarea
            label={t`Description`}
            value={description}
            readOnly={!editable}
            autosize
            minRows={1}
            onChange={(e) => {
              setDescription(e.currentTarget.value);
              changed();
            }}
          />
          {fields.length === 0 ? (
            <Text c="dimmed" size="sm">
              <Trans>No fields yet: add the first below.</Trans>
            </Text>
          ) : null}
          {fields.map((field, index) => (
            <FieldCard
              key={`${String(index)}-${field.type}`}
              field={field}
              index={index}
              count={fields.length}
              editable={editable}
              problems={[
                ...(problems[field.id] ?? []),
                ...(labelProblem(field) === null ? [] : [labelProblem(field) ?? '']),
              ].map((p) => translateServerText(i18n, p))}
              onChange={(p) => patch(index, p)}
              onMove={(by) => move(index, by)}
              onRemove={() => change(fields.filter((_, i) => i !== index))}
              typeLabel={typeLabels[field.type]}
            />
          ))}
          {editable ? (
            <Group align="flex-end">
              <NativeSelect
                label={t`New field`}
                value={addType}
                onChange={(e) => setAddType(e.currentTarget.value as FormFieldType)}
                data={FORM_FIELD_TYPES.map((type) => ({ value: type, label: typeLabels[type] }))}
                data-testid="field-type-new"
              />
              <Button
                variant="default"
                onClick={() => change([...fields, newField(addType, fields, typeLabels[addType])])}
                data-testid="field-add"
              >
                <Trans>Add field</Trans>
              </Button>
            </Group>
          ) : null}
          {page.error === null ? null : (
            <Alert color="red" role="alert">
              {page.error}
            </Alert>
          )}
          {page.saved === null ? null : (
            <Text size="sm" c="teal" role="status">
              {page.saved}
            </Text>
          )}
          {editable ? (
            <Group>
              <Button
                variant="default"
                onClick={() => void save()}
                disabled={!dirty}
                data-testid="form-save"
              >
                <Trans>Save draft</Trans>
              </Button>
              <Button
                onClick={() => void publish()}
                disabled={Object.keys(problems).length > 0}
                data-testid="form-publish"
              >
                <Trans>Publish as version {latest + 1}</Trans>
              </Button>
            </Group>
          ) : null}
          <Stack gap={4} data-testid="form-versions">
            <Text fw={500} size="sm">
              <Trans>Published versions</Trans>
            </Text>
            {versions?.items.length === 0 ? (
              <Text size="sm" c="dimmed">
                <Trans>None yet: technicians fill in the latest published version.</Trans>
              </Text>
            ) : (
              versions?.items.map((v) => (
                <Text key={v.id} size="sm" data-testid="form-version">
                  <Trans>
                    Version {v.attributes.number}: {v.attributes.fields.length} fields
                  </Trans>
                  {v.attributes.created_at === null
                    ? ` (${t`waiting to be sent`})`
                    : ` (${i18n.date(new Date(v.attributes.created_at), { dateStyle: 'medium', timeStyle: 'short' })})`}
                </Text>
              ))
            )}
          </Stack>
        </Stack>
        <Paper withBorder p="md" radius="md" aria-label={t`Preview`} data-testid="form-preview">
          <Stack gap="sm">
            <Title order={2} size="h4">
              <Trans>Preview</Trans>
            </Title>
            <Text size="sm" c="dimmed">
              {name} · {t`as a technician sees it`}
            </Text>
            <FormFill fields={fields} state={preview} onChange={setPreview} showAll={false} />
          </Stack>
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}

/** One field in the designer: type, labels per language, required, limits, options, formula. */
function FieldCard(props: {
  readonly field: FormField;
  readonly index: number;
  readonly count: number;
  readonly editable: boolean;
  readonly problems: readonly string[];
  readonly typeLabel: string;
  readonly onChange: (patch: Partial<FormField>) => void;
  readonly onMove: (by: -1 | 1) => void;
  readonly onRemove: () => void;
}) {
  const { t } = useLingui();
  const { field, onChange } = props;
  const ro = !props.editable;
  const setLabel = (lang: Exclude<Language, 'plain'>, text: string) => {
    const label: FormTexts = { ...field.label, [lang]: text === '' ? undefined : text };
    onChange({ label });
  };
  const languageName: Record<Exclude<Language, 'plain'>, string> = {
    en: t`Label (English)`,
    de: t`Label (German)`,
    pt: t`Label (Portuguese)`,
    ru: t`Label (Russian)`,
  };
  return (
    <Card withBorder padding="sm" data-testid="designer-field" data-field-type={field.type}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={500} size="sm">
            {props.index + 1}. {props.typeLabel}
          </Text>
          {props.editable ? (
            <Group gap={4}>
              <ActionIcon
                variant="subtle"
                aria-label={t`Move up`}
                disabled={props.index === 0}
                onClick={() => props.onMove(-1)}
              >
                ↑
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                aria-label={t`Move down`}
                disabled={props.index === props.count - 1}
                onClick={() => props.onMove(1)}
              >
                ↓
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={t`Remove field`}
                onClick={props.onRemove}
              >
                ×
              </ActionIcon>
            </Group>
          ) : null}
        </Group>
        <SimpleGrid cols={2} spacing="xs">
          {LABEL_LANGUAGES.map((lang) => (
            <TextInput
              key={lang}
              size="xs"
              label={languageName[lang]}
              readOnly={ro}
              value={field.label[lang] ?? ''}
              onChange={(e) => setLabel(lang, e.currentTarget.value)}
              data-label-lang={lang}
            />
          ))}
        </SimpleGrid>
        <Group gap="md" align="flex-end">
          <TextInput
            size="xs"
            label={t`Id (used in formulas)`}
            readOnly={ro}
            value={field.id}
            onChange={(e) => onChange({ id: e.currentTarget.value.toLowerCase() })}
          />
          {field.type === 'formula' ? null : (
            <Switch
              size="xs"
              label={t`Required`}
              disabled={ro}
              checked={field.required}
              onChange={(e) => onChange({ required: e.currentTarget.checked })}
            />
          )}
        </Group>
        {field.type === 'number' ? (
          <Group grow gap="xs">
            <NumberInput
              size="xs"
              label={t`Lowest`}
              readOnly={ro}
              value={field.min ?? ''}
              onChange={(v) => onChange({ min: typeof v === 'number' ? v : null })}
            />
            <NumberInput
              size="xs"
              label={t`Highest`}
              readOnly={ro}
              value={field.max ?? ''}
              onChange={(v) => onChange({ max: typeof v === 'number' ? v : null })}
            />
            <TextInput
              size="xs"
              label={t`Unit`}
              readOnly={ro}
              value={field.unit}
              onChange={(e) => onChange({ unit: e.currentTarget.value })}
            />
          </Group>
        ) : null}
        {field.type === 'text' ? (
          <Group gap="md" align="flex-end">
            <NumberInput
              size="xs"
              label={t`Longest answer`}
              min={1}
              max={5000}
              readOnly={ro}
              value={field.max_length}
              onChange={(v) => onChange({ max_length: typeof v === 'number' ? v : 2000 })}
            />
            <Switch
              size="xs"
              label={t`Several lines`}
              disabled={ro}
              checked={field.multiline}
              onChange={(e) => onChange({ multiline: e.currentTarget.checked })}
            />
          </Group>
        ) : null}
        {field.type === 'select' || field.type === 'multiselect' ? (
          <Stack gap="xs">
            <Textarea
              size="xs"
              label={t`Options (one per line)`}
              readOnly={ro}
              autosize
              minRows={2}
              value={field.options
                .map((o) => o.label.en ?? Object.values(o.label)[0] ?? '')
                .join('\n')}
              onChange={(e) =>
                onChange({
                  options: e.currentTarget.value
                    .split('\n')
                    .slice(0, 100)
                    .map((line, i) => ({
                      id: field.options[i]?.id ?? `opt_${String(i + 1)}`,
                      label: { ...field.options[i]?.label, en: line },
                    })),
                })
              }
            />
            {field.type === 'multiselect' ? (
              <NumberInput
                size="xs"
                label={t`Most choices (empty: any)`}
                min={1}
                readOnly={ro}
                value={field.max_selections ?? ''}
                onChange={(v) => onChange({ max_selections: typeof v === 'number' ? v : null })}
              />
            ) : null}
          </Stack>
        ) : null}
        {field.type === 'formula' ? (
          <Group grow gap="xs">
            <TextInput
              size="xs"
              label={t`Formula (field ids, + − × ÷, parentheses)`}
              placeholder="hours * 60"
              readOnly={ro}
              value={field.formula}
              onChange={(e) => onChange({ formula: e.currentTarget.value })}
              data-testid="field-formula"
            />
            <TextInput
              size="xs"
              label={t`Unit`}
              readOnly={ro}
              value={field.unit}
              onChange={(e) => onChange({ unit: e.currentTarget.value })}
            />
          </Group>
        ) : null}
        {field.type === 'photo' ? (
          <NumberInput
            size="xs"
            label={t`Most photos`}
            min={1}
            max={10}
            readOnly={ro}
            value={field.max_files}
            onChange={(v) => onChange({ max_files: typeof v === 'number' ? v : 5 })}
          />
        ) : null}
        {props.problems.map((p) => (
          <Text key={p} size="xs" c="red" role="alert" data-testid="designer-problem">
            {p}
          </Text>
        ))}
      </Stack>
    </Card>
  );
}
