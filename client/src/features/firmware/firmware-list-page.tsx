import '../versions/catalogues';
import { useMemo, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Anchor,
  Button,
  Group,
  Modal,
  Skeleton,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import { firmwareAttributesSchema, uuidv7 } from '@plant/shared-schema';
import { DataTable } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { ModalForm } from '../../components/modal-form';
import { Name } from '../../components/name';
import { usePageState } from '../../components/page-state';
import { useCan } from '../../permissions/permissions';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { versionPaths } from '../versions/paths';
import { VersionsNav } from '../versions/release-parts';

/** /app/firmware/list (spec 001 §3): the account's firmware by type and name, live. */
export function FirmwareListPage() {
  const { t } = useLingui();
  const firmware = useLiveQuery({ type: 'firmware', limit: 1000 });
  const releases = useLiveQuery({ type: 'release', limit: 1000 });
  const versions = useMemo(() => {
    const counted = new Map<string, number>();
    for (const r of releases?.items ?? []) {
      const id = r.attributes.firmware_id;
      if (id !== null) counted.set(id, (counted.get(id) ?? 0) + 1);
    }
    return counted;
  }, [releases]);
  return (
    <Stack gap="md" data-testid="firmware-page">
      <VersionsNav />
      <Group justify="space-between">
        <Title order={1}>
          <Trans>Firmware</Trans>
        </Title>
        <NewFirmwareButton />
      </Group>
      <DataTable
        rows={firmware?.items}
        name={{ label: t`Firmware` }}
        testId="firmware-list"
        rowKey={(f) => f.id}
        rowData={(f) => ({ 'data-testid': 'firmware-row', 'data-id': f.id })}
        loading={<Skeleton height={36} />}
        empty={<EmptyState title={<Trans>No firmware yet</Trans>} />}
        columns={[
          {
            id: 'name',
            header: <Trans>Firmware name</Trans>,
            rowHeader: true,
            cell: (f) => (
              <Anchor component={Link} to={versionPaths.firmware(f.id)}>
                <Name>{f.attributes.name}</Name>
              </Anchor>
            ),
          },
          {
            id: 'type',
            header: <Trans>Firmware type</Trans>,
            cell: (f) => <Name>{f.attributes.type}</Name>,
          },
          { id: 'versions', header: <Trans>Versions</Trans>, cell: (f) => versions.get(f.id) ?? 0 },
        ]}
      />
    </Stack>
  );
}

function NewFirmwareButton() {
  const { t } = useLingui();
  const can = useCan();
  const [open, setOpen] = useState(false);
  if (!can('release::create')) return null;
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="firmware-new">
        <Trans>New firmware</Trans>
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t`New firmware`}>
        {open ? <FirmwareForm onCancel={() => setOpen(false)} /> : null}
      </Modal>
    </>
  );
}

function FirmwareForm(props: { readonly onCancel: () => void }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [type, setType] = useState('');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const page = usePageState(['type', 'name', 'description']);
  const submit = async () => {
    const checked = page.check(firmwareAttributesSchema.safeParse({ type, name, description }));
    if (checked === null) return;
    const id = uuidv7();
    const made = await syncWorker().writes.create('firmware', checked, id);
    if (!page.took(made)) return;
    await navigate({ to: versionPaths.firmware(id) });
  };
  return (
    <ModalForm
      testId="firmware-form"
      onSubmit={submit}
      onCancel={props.onCancel}
      submitLabel={<Trans>Create firmware</Trans>}
      error={page.error}
    >
      <TextInput
        label={t`Firmware type`}
        placeholder={t`Enter firmware type`}
        required
        value={type}
        onChange={(e) => setType(e.currentTarget.value)}
        error={page.fields.type}
        data-autofocus
        data-testid="firmware-type"
      />
      <TextInput
        label={t`Firmware name`}
        placeholder={t`Enter firmware name`}
        required
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={page.fields.name}
        data-testid="firmware-name"
      />
      <Textarea
        label={t`Description`}
        value={description}
        onChange={(e) => setDescription(e.currentTarget.value)}
        error={page.fields.description}
      />
      <Text size="xs" c="dimmed">
        <Trans>Its versions are made on the Platforms tab.</Trans>
      </Text>
    </ModalForm>
  );
}
