import '../versions/catalogues';
import { useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Anchor,
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { Link, useParams } from '@tanstack/react-router';
import { boardAttributesSchema, PIN_KINDS, type BoardPin } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { EmptyState } from '../../components/empty-state';
import { Name } from '../../components/name';
import { usePageState } from '../../components/page-state';
import { useUnsaved } from '../../components/unsaved';
import { useMayEdit } from '../../permissions/may-edit';
import { useLiveModel, useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { versionPaths } from '../versions/paths';
import { SaveWithConfirmation, VersionsNav } from '../versions/release-parts';
import { useFormBase } from '../../components/changed-fields';

/** /app/boards/{id}/details: a board's name, its firmware and its pins (name, number, GPIO or I2C). */
export function BoardPage() {
  const { boardid = '' }: { boardid?: string } = useParams({ strict: false });
  const state = useLiveModel('board', boardid);
  if (state.name === 'loading') return <Skeleton height={240} />;
  if (state.name === 'missing')
    return (
      <EmptyState title={<Trans>There is no such board in this account</Trans>}>
        <Button component={Link} to={versionPaths.boardList()} variant="light">
          <Trans>All boards</Trans>
        </Button>
      </EmptyState>
    );
  return <BoardDetails key={state.model.id} board={state.model} />;
}

interface Draft {
  readonly name: string;
  readonly firmware_id: string | null;
  readonly pins: readonly BoardPin[];
}

function BoardDetails({ board }: { readonly board: LocalModel<'board'> }) {
  const { t } = useLingui();
  const a = board.attributes;
  const editable = useMayEdit('board', board);
  const firmware = useLiveQuery({ type: 'firmware', limit: 1000 });
  const gateways = useLiveQuery({ type: 'gateway', limit: 1000 });
  const onBoard = gateways?.items.filter((g) => g.attributes.board_id === board.id).length;
  const stored: Draft = { name: a.name, firmware_id: a.firmware_id, pins: a.pins };
  const [draft, setDraft] = useState<Draft>(stored);
  const { dirty, changed, saving } = useUnsaved();
  useEffect(() => {
    if (!dirty) setDraft({ name: a.name, firmware_id: a.firmware_id, pins: a.pins });
  }, [a.name, a.firmware_id, a.pins, dirty]);
  // A save writes what the user changed (another user's change of the rest meanwhile stays).
  const base = useFormBase(a, dirty);
  const page = usePageState(['name', 'firmware_id', 'pins']);
  const change = (next: Partial<Draft>) => {
    setDraft((old) => ({ ...old, ...next }));
    changed();
  };
  const setPin = (index: number, pin: Partial<BoardPin>) =>
    change({ pins: draft.pins.map((p, i) => (i === index ? { ...p, ...pin } : p)) });
  const save = async () => {
    const checked = page.check(boardAttributesSchema.safeParse(draft));
    if (checked === null) return;
    const saved = saving();
    const written = await base.save(checked, async (change) =>
      page.took(await syncWorker().writes.update('board', board.id, change), 'write'),
    );
    if (written) saved();
  };
  const nextNumber = Math.max(-1, ...draft.pins.map((p) => p.number)) + 1;
  return (
    <Stack gap="md" data-testid="board-details" data-id={board.id}>
      <VersionsNav />
      <Group justify="space-between">
        <Title order={1}>
          <Name>{a.name}</Name>
        </Title>
        <Anchor component={Link} to={versionPaths.boardList()} size="sm">
          <Trans>All boards</Trans>
        </Anchor>
      </Group>
      {onBoard === undefined ? null : (
        <Text size="sm" c="dimmed" data-testid="board-gateways">
          {t`Gateways on this board: ${onBoard}`}
        </Text>
      )}
      <Paper withBorder p="md" radius="sm">
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
          data-testid="board-form-details"
        >
          <Stack gap="sm">
            <TextInput
              label={t`Board name`}
              placeholder={t`Enter board name`}
              value={draft.name}
              readOnly={!editable}
              onChange={(e) => change({ name: e.currentTarget.value })}
              error={page.fields.name}
            />
            <Select
              label={t`Firmware`}
              data={(firmware?.items ?? []).map((f) => ({
                value: f.id,
                label: `${f.attributes.name} (${f.attributes.type})`,
              }))}
              value={draft.firmware_id}
              readOnly={!editable}
              clearable
              onChange={(id) => change({ firmware_id: id })}
              error={page.fields.firmware_id}
            />
            <Title order={2} size="h4">
              <Trans>Pins</Trans>
            </Title>
            {draft.pins.length === 0 ? (
              <Text size="sm" c="dimmed">
                <Trans>No pins yet.</Trans>
              </Text>
            ) : (
              <Table data-testid="board-pins">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>
                      <Trans>Pin name</Trans>
                    </Table.Th>
                    <Table.Th>
                      <Trans>Number</Trans>
                    </Table.Th>
                    <Table.Th>
                      <Trans>Kind</Trans>
                    </Table.Th>
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
                  {draft.pins.map((pin, index) => (
                    // A pin's place is its key while the form is open (its number may change).
                    <Table.Tr key={index} data-testid="board-pin">
                      <Table.Td>
                        <TextInput
                          aria-label={t`Pin name ${index + 1}`}
                          value={pin.name}
                          readOnly={!editable}
                          onChange={(e) => setPin(index, { name: e.currentTarget.value })}
                        />
                      </Table.Td>
                      <Table.Td>
                        <NumberInput
                          aria-label={t`Pin number ${index + 1}`}
                          value={pin.number}
                          readOnly={!editable}
                          min={0}
                          max={1024}
                          allowDecimal={false}
                          onChange={(v) => setPin(index, { number: Number(v) })}
                        />
                      </Table.Td>
                      <Table.Td>
                        <Select
                          aria-label={t`Pin kind ${index + 1}`}
                          data={PIN_KINDS.map((k) => ({
                            value: k,
                            label: k === 'gpio' ? 'GPIO' : 'I2C',
                          }))}
                          value={pin.kind}
                          readOnly={!editable}
                          allowDeselect={false}
                          onChange={(v) => setPin(index, { kind: v ?? 'gpio' })}
                        />
                      </Table.Td>
                      {editable ? (
                        <Table.Td>
                          <Button
                            variant="subtle"
                            color="red"
                            size="compact-sm"
                            aria-label={t`Remove pin ${index + 1}`}
                            onClick={() =>
                              change({ pins: draft.pins.filter((_, i) => i !== index) })
                            }
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
            {page.fields.pins === undefined && page.error === null ? null : (
              <Alert color="red" role="alert">
                {page.fields.pins ?? page.error}
              </Alert>
            )}
            {editable ? (
              <Group justify="space-between">
                <Button
                  variant="default"
                  onClick={() =>
                    change({
                      pins: [
                        ...draft.pins,
                        { name: `GPIO${nextNumber}`, number: nextNumber, kind: 'gpio' },
                      ],
                    })
                  }
                  data-testid="board-pin-add"
                >
                  <Trans>Add pin</Trans>
                </Button>
                <SaveWithConfirmation saved={page.saved} testId="board-save" />
              </Group>
            ) : null}
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
