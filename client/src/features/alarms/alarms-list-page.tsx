import { lazy, Suspense, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Loader, Modal, Stack, Title } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useCan } from '../../permissions/permissions';
import { useLiveQuery } from '../../sync/hooks';
import { alarmPaths } from './alarm-paths';
import { AlarmsTable } from './alarms-table';

// The form is a chunk of its own, loaded with the dialog (the list's first visit kept it within
// its JavaScript budget by a few bytes only).
const AlarmForm = lazy(() => import('./alarm-form').then((m) => ({ default: m.AlarmForm })));

/** At most this many alarms are listed (an account's alarms are tens, not thousands). */
const LIST_LIMIT = 1000;

/**
 * /app/alarms: the account's alarms from the local store, live and offline too, with filters by
 * state and severity, and a new alarm for any stream (asset and stream pickers).
 */
export function AlarmsListPage() {
  const { t } = useLingui();
  const alarms = useLiveQuery({ type: 'alarm', limit: LIST_LIMIT });
  return (
    <Stack gap="md" data-testid="alarms-page">
      <Group justify="space-between">
        <Title order={1}>
          <Trans>Alarms</Trans>
        </Title>
        <NewAlarmButton />
      </Group>
      <AlarmsTable
        alarms={alarms?.items}
        caption={t`The account's alarms`}
        withFilters
        empty={<Trans>No alarms yet. Add one from a data stream's page or with New alarm.</Trans>}
      />
    </Stack>
  );
}

/** "New alarm" (alarm::create): the form in a dialog, for a given stream or with pickers. */
export function NewAlarmButton(props: {
  readonly stream?: { readonly assetId: string; readonly streamId: string };
}) {
  const { t } = useLingui();
  const can = useCan();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  if (!can('alarm::create')) return null;
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="new-alarm">
        <Trans>New alarm</Trans>
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t`New alarm`} size="xl">
        {open ? (
          <Suspense fallback={<Loader role="status" aria-label={t`Loading the form…`} />}>
            <AlarmForm
              {...(props.stream === undefined ? {} : { stream: props.stream })}
              onDone={(id) => {
                setOpen(false);
                if (id !== null) void navigate({ to: alarmPaths.alarm(id) });
              }}
            />
          </Suspense>
        ) : null}
      </Modal>
    </>
  );
}
