import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Modal, TextInput } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { dashboardAttributesSchema, uuidv7 } from '@plant/shared-schema';
import { ModalForm } from '../../components/modal-form';
import { usePageState } from '../../components/page-state';
import { syncWorker } from '../../sync/worker';
import { useMayCreateDashboard } from './dashboard-permissions';
import { dashboardPaths } from './paths';
import type { DashboardScope } from './stream-choices';

/**
 * "New dashboard" (dashboard::create; not offered without it): its name in a dialog, then the
 * new, empty dashboard opens (last 2 hours) to add widgets. The id is made here, so it works
 * offline: the write waits in the outbox.
 */
export function NewDashboardButton(props: { readonly scope: DashboardScope }) {
  const { t } = useLingui();
  const may = useMayCreateDashboard(props.scope.assetId);
  const [open, setOpen] = useState(false);
  if (!may) return null;
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="new-dashboard">
        <Trans>New dashboard</Trans>
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t`New dashboard`}>
        {open ? <NewDashboardForm scope={props.scope} onCancel={() => setOpen(false)} /> : null}
      </Modal>
    </>
  );
}

function NewDashboardForm(props: {
  readonly scope: DashboardScope;
  readonly onCancel: () => void;
}) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const page = usePageState(['name']);

  const submit = async () => {
    const checked = page.check(dashboardAttributesSchema.pick({ name: true }).safeParse({ name }));
    if (checked === null) {
      document.getElementById('new-dashboard-name')?.focus();
      return;
    }
    const owner = { asset_id: props.scope.assetId, template_id: props.scope.templateId };
    const id = uuidv7();
    setBusy(true);
    const made = await syncWorker().writes.create(
      'dashboard',
      { name: checked.name, ...owner },
      id,
    );
    setBusy(false);
    if (!page.took(made)) return;
    await navigate({ to: dashboardPaths.of(id, owner) });
  };

  return (
    <ModalForm
      testId="new-dashboard-form"
      onSubmit={submit}
      onCancel={props.onCancel}
      submitLabel={<Trans>Create dashboard</Trans>}
      error={page.error}
      busy={busy}
    >
      <TextInput
        id="new-dashboard-name"
        label={t`Name`}
        required
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={page.fields.name}
        data-autofocus
      />
    </ModalForm>
  );
}
