import '../versions/catalogues';
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Group, Modal, Skeleton, Stack, TextInput, Title } from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import { boardAttributesSchema, uuidv7 } from '@plant/shared-schema';
import { DataTable } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { ModalForm } from '../../components/modal-form';
import { Name } from '../../components/name';
import { usePageState } from '../../components/page-state';
import { useCan } from '../../permissions/permissions';
import { useLiveModel, useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { versionPaths } from '../versions/paths';
import { VersionsNav } from '../versions/release-parts';

/** /app/boards/list (spec 001 §3): the account's boards with their firmware and pins, live. */
export function BoardsListPage() {
  const { t } = useLingui();
  const boards = useLiveQuery({ type: 'board', limit: 1000 });
  return (
    <Stack gap="md" data-testid="boards-page">
      <VersionsNav />
      <Group justify="space-between">
        <Title order={1}>
          <Trans context="hardware">Boards</Trans>
        </Title>
        <NewBoardButton />
      </Group>
      <DataTable
        rows={boards?.items}
        name={{ label: t({ message: 'Boards', context: 'hardware' }) }}
        testId="board-list"
        rowKey={(b) => b.id}
        rowData={(b) => ({ 'data-testid': 'board-row', 'data-id': b.id })}
        loading={<Skeleton height={36} />}
        empty={<EmptyState title={<Trans>No boards yet</Trans>} />}
        columns={[
          {
            id: 'name',
            header: <Trans>Board name</Trans>,
            rowHeader: true,
            cell: (b) => (
              <Anchor component={Link} to={versionPaths.board(b.id)}>
                <Name>{b.attributes.name}</Name>
              </Anchor>
            ),
          },
          {
            id: 'firmware',
            header: <Trans>Firmware</Trans>,
            cell: (b) => <FirmwareName id={b.attributes.firmware_id} />,
          },
          { id: 'pins', header: <Trans>Pins</Trans>, cell: (b) => b.attributes.pins.length },
        ]}
      />
    </Stack>
  );
}

export function FirmwareName({ id }: { readonly id: string | null }) {
  const state = useLiveModel('firmware', id ?? '');
  if (id === null) return <>–</>;
  if (state.name !== 'found') return <>…</>;
  return <Name>{state.model.attributes.name}</Name>;
}

function NewBoardButton() {
  const { t } = useLingui();
  const can = useCan();
  const [open, setOpen] = useState(false);
  if (!can('release::create')) return null;
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="board-new">
        <Trans>New board</Trans>
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t`New board`}>
        {open ? <BoardForm onCancel={() => setOpen(false)} /> : null}
      </Modal>
    </>
  );
}

function BoardForm(props: { readonly onCancel: () => void }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const page = usePageState(['name']);
  const submit = async () => {
    const checked = page.check(boardAttributesSchema.safeParse({ name }));
    if (checked === null) return;
    const id = uuidv7();
    const made = await syncWorker().writes.create('board', checked, id);
    if (!page.took(made)) return;
    await navigate({ to: versionPaths.board(id) });
  };
  return (
    <ModalForm
      testId="board-form"
      onSubmit={submit}
      onCancel={props.onCancel}
      submitLabel={<Trans>Create board</Trans>}
      error={page.error}
    >
      <TextInput
        label={t`Board name`}
        placeholder={t`Enter board name`}
        required
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={page.fields.name}
        data-autofocus
        data-testid="board-name"
      />
    </ModalForm>
  );
}
