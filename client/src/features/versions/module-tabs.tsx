import { useEffect, useState, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Button,
  Group,
  Paper,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import {
  DATASTREAM_TYPES,
  releaseAttributesSchema,
  type ReleaseAttributes,
} from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { usePageState } from '../../components/page-state';
import { useUnsaved } from '../../components/unsaved';
import { useMayEdit } from '../../permissions/may-edit';
import { syncWorker } from '../../sync/worker';
import type { ModuleTab } from './paths';
import { RefusalAlert, SaveWithConfirmation, useRefusal } from './release-parts';

type Row = Record<string, unknown>;
type Kind = 'text' | 'type' | 'switch' | 'value';

interface Column {
  readonly field: string;
  readonly label: string;
  readonly kind: Kind;
}

/** A tab's rows as the version stores them, and how they are written back. */
interface TabShape {
  readonly rows: (a: ReleaseAttributes) => readonly Row[];
  readonly patch: (rows: Row[]) => Partial<ReleaseAttributes>;
  readonly field: 'interface' | 'feature_flags' | 'actions' | 'datastreams';
  readonly blank: Row;
}

const SHAPES: Record<Exclude<ModuleTab, 'general'>, TabShape> = {
  interface: {
    field: 'interface',
    rows: (a) => a.interface.datapoints,
    patch: (rows) => ({ interface: { datapoints: rows } }) as Partial<ReleaseAttributes>,
    blank: { key: '', address: '', type: 'number', unit: '' },
  },
  featureflags: {
    field: 'feature_flags',
    rows: (a) => a.feature_flags,
    patch: (rows) => ({ feature_flags: rows }) as Partial<ReleaseAttributes>,
    blank: { key: '', enabled: false, description: '' },
  },
  actions: {
    field: 'actions',
    rows: (a) => a.actions,
    patch: (rows) => ({ actions: rows }) as Partial<ReleaseAttributes>,
    blank: { key: '', label: '', datapoint: '', value: null },
  },
  datastreams: {
    field: 'datastreams',
    rows: (a) => a.datastreams,
    patch: (rows) => ({ datastreams: rows }) as Partial<ReleaseAttributes>,
    blank: { key: '', name: '', datapoint: '', type: 'number', unit: '' },
  },
};

/** An action's value as typed: a number, true or false, a text, or none. */
function valueOf(text: string): number | boolean | string | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (trimmed === 'true' || trimmed === 'false') return trimmed === 'true';
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : trimmed;
}

/** Rows as the form edits them: an action's value as typed ("1.", "open valve "), read at save. */
function asEdited(tab: Exclude<ModuleTab, 'general'>, list: readonly Row[]): Row[] {
  if (tab !== 'actions') return list.map((r) => ({ ...r }));
  return list.map((r) => ({
    ...r,
    value:
      typeof r.value === 'number' || typeof r.value === 'boolean' || typeof r.value === 'string'
        ? String(r.value)
        : '',
  }));
}

/**
 * A module version's interface, feature flags, actions or data streams (spec 000 §2): rows in a
 * table, changed while the version is a draft and saved as a whole (checked by the shared
 * schema; offline too); read-only once released.
 */
export function ModuleTabEditor(props: {
  readonly release: LocalModel<'release'>;
  readonly tab: Exclude<ModuleTab, 'general'>;
}) {
  const { t } = useLingui();
  const { release, tab } = props;
  const shape = SHAPES[tab];
  const editable = useMayEdit('release', release) && release.attributes.state === 'draft';
  const stored = shape.rows(release.attributes);
  const [rows, setRows] = useState<Row[]>(() => asEdited(tab, stored));
  const { dirty, changed, saving } = useUnsaved();
  const page = usePageState([shape.field]);
  const [refusal, clearRefusal] = useRefusal(release.id, false);
  useEffect(() => {
    if (!dirty) setRows(asEdited(tab, stored));
  }, [stored, dirty, tab]);

  const columns: readonly Column[] = {
    interface: [
      { field: 'key', label: t`Key`, kind: 'text' },
      { field: 'address', label: t`Address`, kind: 'text' },
      { field: 'type', label: t`Type`, kind: 'type' },
      { field: 'unit', label: t`Unit`, kind: 'text' },
    ],
    featureflags: [
      { field: 'key', label: t`Key`, kind: 'text' },
      { field: 'enabled', label: t`On`, kind: 'switch' },
      { field: 'description', label: t`Description`, kind: 'text' },
    ],
    actions: [
      { field: 'key', label: t`Key`, kind: 'text' },
      { field: 'label', label: t`Label`, kind: 'text' },
      { field: 'datapoint', label: t`Datapoint`, kind: 'text' },
      { field: 'value', label: t`Value`, kind: 'value' },
    ],
    datastreams: [
      { field: 'key', label: t`Key`, kind: 'text' },
      { field: 'name', label: t`Name`, kind: 'text' },
      { field: 'datapoint', label: t`Datapoint`, kind: 'text' },
      { field: 'type', label: t`Type`, kind: 'type' },
      { field: 'unit', label: t`Unit`, kind: 'text' },
    ],
  }[tab] as readonly Column[];
  const explained: Record<typeof tab, ReactNode> = {
    interface: (
      <Trans>
        The datapoints the module's machine software exposes, and where the gateway reads them.
      </Trans>
    ),
    featureflags: <Trans>Features of this version that are switched on or off.</Trans>,
    actions: <Trans>What a user may have the machine do: a value written to a datapoint.</Trans>,
    datastreams: <Trans>The data streams an asset running this version gets.</Trans>,
  };

  const change = (index: number, field: string, value: unknown) => {
    setRows((old) => old.map((r, i) => (i === index ? { ...r, [field]: value } : r)));
    changed();
  };
  const save = async () => {
    clearRefusal();
    const patch = shape.patch(
      tab === 'actions'
        ? rows.map((r) => ({ ...r, value: valueOf(typeof r.value === 'string' ? r.value : '') }))
        : rows,
    );
    const checked = page.check(
      releaseAttributesSchema
        .pick({ [shape.field]: true } as Record<typeof shape.field, true>)
        .safeParse(patch),
    );
    if (checked === null) return;
    const saved = saving();
    const answer = await syncWorker().writes.update('release', release.id, checked);
    if (page.took(answer, 'write')) saved();
  };

  const cell = (row: Row, index: number, column: Column) => {
    const label = `${column.label} ${index + 1}`;
    const value = row[column.field];
    if (column.kind === 'switch')
      return (
        <Switch
          aria-label={label}
          checked={value === true}
          disabled={!editable}
          onChange={(e) => change(index, column.field, e.currentTarget.checked)}
        />
      );
    if (column.kind === 'type')
      return (
        <Select
          aria-label={label}
          data={[...DATASTREAM_TYPES]}
          value={String(value)}
          readOnly={!editable}
          allowDeselect={false}
          onChange={(v) => change(index, column.field, v)}
        />
      );
    return (
      <TextInput
        aria-label={label}
        value={
          typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
            ? String(value)
            : ''
        }
        readOnly={!editable}
        onChange={(e) => change(index, column.field, e.currentTarget.value)}
        data-testid={`module-${column.field}`}
      />
    );
  };

  return (
    <Paper withBorder p="md" radius="sm" data-testid={`module-${tab}`}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {explained[tab]}
          </Text>
          {rows.length === 0 ? (
            <Text size="sm" c="dimmed" data-testid="module-rows-empty">
              <Trans>Nothing here yet.</Trans>
            </Text>
          ) : (
            <Table>
              <Table.Thead>
                <Table.Tr>
                  {columns.map((c) => (
                    <Table.Th key={c.field}>{c.label}</Table.Th>
                  ))}
                  {editable ? (
                    <Table.Th>
                      <VisuallyHidden>
                        <Trans>Remove</Trans>
                      </VisuallyHidden>
                    </Table.Th>
                  ) : null}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row, index) => (
                  // Rows have no id of their own: their place is theirs while the form is open.
                  <Table.Tr key={index} data-testid="module-row-edit">
                    {columns.map((c) => (
                      <Table.Td key={c.field}>{cell(row, index, c)}</Table.Td>
                    ))}
                    {editable ? (
                      <Table.Td>
                        <Button
                          variant="subtle"
                          color="red"
                          size="compact-sm"
                          aria-label={t`Remove row ${index + 1}`}
                          onClick={() => {
                            setRows((old) => old.filter((_, i) => i !== index));
                            changed();
                          }}
                        >
                          <Trans>Remove</Trans>
                        </Button>
                      </Table.Td>
                    ) : null}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {page.fields[shape.field] === undefined && page.error === null ? null : (
            <Alert color="red" role="alert">
              {page.fields[shape.field] ?? page.error}
            </Alert>
          )}
          <RefusalAlert text={refusal} />
          {editable ? (
            <Group justify="space-between">
              <Button
                variant="default"
                onClick={() => {
                  setRows((old) => [...old, { ...shape.blank }]);
                  changed();
                }}
                data-testid="module-row-add"
              >
                <Trans>Add row</Trans>
              </Button>
              <SaveWithConfirmation saved={page.saved} testId="module-save" />
            </Group>
          ) : null}
        </Stack>
      </form>
    </Paper>
  );
}
