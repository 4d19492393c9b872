import '../versions/catalogues';
import { useEffect, useMemo, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  Skeleton,
  Stack,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { Link, useParams } from '@tanstack/react-router';
import { firmwareAttributesSchema } from '@plant/shared-schema';
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
import { byVersion, ReleaseTable } from '../versions/release-table';
import { useFormBase } from '../../components/changed-fields';

/** /app/firmware/{id}/details: a firmware's type, name and description, and its versions. */
export function FirmwarePage() {
  const { firmwareid = '' }: { firmwareid?: string } = useParams({ strict: false });
  const state = useLiveModel('firmware', firmwareid);
  if (state.name === 'loading') return <Skeleton height={240} />;
  if (state.name === 'missing')
    return (
      <EmptyState title={<Trans>There is no such firmware in this account</Trans>}>
        <Button component={Link} to={versionPaths.firmwareList()} variant="light">
          <Trans>All firmware</Trans>
        </Button>
      </EmptyState>
    );
  return <FirmwareDetails key={state.model.id} firmware={state.model} />;
}

function FirmwareDetails({ firmware }: { readonly firmware: LocalModel<'firmware'> }) {
  const { t } = useLingui();
  const a = firmware.attributes;
  const editable = useMayEdit('firmware', firmware);
  const [draft, setDraft] = useState({ type: a.type, name: a.name, description: a.description });
  const { dirty, changed, saving } = useUnsaved();
  useEffect(() => {
    if (!dirty) setDraft({ type: a.type, name: a.name, description: a.description });
  }, [a.type, a.name, a.description, dirty]);
  // A save writes what the user changed (another user's change of the rest meanwhile stays).
  const base = useFormBase(a, dirty);
  const page = usePageState(['type', 'name', 'description']);
  const releases = useLiveQuery({ type: 'release', limit: 1000 });
  const versions = useMemo(
    () => releases?.items.filter((r) => r.attributes.firmware_id === firmware.id).sort(byVersion),
    [releases, firmware.id],
  );
  const set = (field: keyof typeof draft, value: string) => {
    setDraft((old) => ({ ...old, [field]: value }));
    changed();
  };
  const save = async () => {
    const checked = page.check(firmwareAttributesSchema.safeParse(draft));
    if (checked === null) return;
    const saved = saving();
    const written = await base.save(checked, async (change) =>
      page.took(await syncWorker().writes.update('firmware', firmware.id, change), 'write'),
    );
    if (written) saved();
  };
  return (
    <Stack gap="md" data-testid="firmware-details" data-id={firmware.id}>
      <VersionsNav />
      <Group justify="space-between">
        <Title order={1}>
          <Name>{a.name}</Name>
        </Title>
        <Anchor component={Link} to={versionPaths.firmwareList()} size="sm">
          <Trans>All firmware</Trans>
        </Anchor>
      </Group>
      <Paper withBorder p="md" radius="sm">
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <Stack gap="sm">
            <TextInput
              label={t`Firmware type`}
              placeholder={t`Enter firmware type`}
              value={draft.type}
              readOnly={!editable}
              onChange={(e) => set('type', e.currentTarget.value)}
              error={page.fields.type}
            />
            <TextInput
              label={t`Firmware name`}
              placeholder={t`Enter firmware name`}
              value={draft.name}
              readOnly={!editable}
              onChange={(e) => set('name', e.currentTarget.value)}
              error={page.fields.name}
            />
            <Textarea
              label={t`Description`}
              value={draft.description}
              readOnly={!editable}
              autosize
              onChange={(e) => set('description', e.currentTarget.value)}
            />
            {page.error === null ? null : <Alert color="red">{page.error}</Alert>}
            {editable ? <SaveWithConfirmation saved={page.saved} testId="firmware-save" /> : null}
          </Stack>
        </form>
      </Paper>
      <Title order={2} size="h3">
        <Trans>Versions</Trans>
      </Title>
      <ReleaseTable rows={versions} label={t`Versions of the firmware`} />
    </Stack>
  );
}
