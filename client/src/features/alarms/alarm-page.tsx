import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { HelpLink } from '../../components/help-link';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Badge,
  Box,
  Button,
  Group,
  Loader,
  Modal,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { isolate, ALARM_LIMITS, uuidv7, type ModelInput } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { EmptyState } from '../../components/empty-state';
import { callErrorText } from '../../i18n/server-texts';
import { useCan } from '../../permissions/permissions';
import { onSyncEvent } from '../../sync/bridge';
import { useLiveModel, useLiveQuery } from '../../sync/hooks';
import { syncStatusAtom } from '../../sync/status';
import { syncWorker } from '../../sync/worker';
import { AlarmEvents } from './alarm-events';
import {
  AcknowledgedHere,
  AlarmValue,
  AssetName,
  DeliveryNote,
  StateBadge,
  StreamName,
  UserName,
} from './alarm-parts';
import { TimeAgo, absoluteTime, useServerNow } from '../../components/time-ago';
import { useAcknowledgedHere } from '../../sync/pending';
import { alarmPaths } from './alarm-paths';
import { isShelved } from './alarm-rows';
import {
  alarmText,
  channelLabel,
  conditionLabel,
  kindLabel,
  severityColor,
  severityLabel,
} from './alarm-texts';
import { Name } from '../../components/name';
import { InspectButton } from '../inspection/inspect-button';

/* The edit form loads with its dialog: the page's first visit stays within its budget. */
const AlarmForm = lazy(() => import('./alarm-form').then((m) => ({ default: m.AlarmForm })));

/**
 * /app/alarms/{id}: one alarm from the local store (what a push notification opens): its status,
 * the acknowledgement with a note (an `alarm_ack` with an id made here, through the outbox: offline
 * it waits and shows as such), shelving for maintenance, enable and disable, edit, delete, its
 * rule and the acknowledgements given.
 */
export function AlarmPage() {
  const { alarmid = '' }: { alarmid?: string } = useParams({ strict: false });
  const state = useLiveModel('alarm', alarmid);
  const { bootstrap } = useAtomValue(syncStatusAtom);
  if (state.name === 'found') return <AlarmView alarm={state.model} />;
  if (state.name === 'loading' || bootstrap.name === 'loading' || bootstrap.name === 'idle') {
    return <Skeleton height={320} aria-busy />;
  }
  return (
    <EmptyState title={<Trans>There is no such alarm in this account</Trans>}>
      <Button component={Link} to={alarmPaths.list()} variant="light">
        <Trans>Go to the alarms</Trans>
      </Button>
    </EmptyState>
  );
}

function AlarmView({ alarm }: { readonly alarm: LocalModel<'alarm'> }) {
  const { t, i18n } = useLingui();
  const can = useCan();
  const now = useServerNow(15_000);
  const a = alarm.attributes;
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const update = async (patch: Partial<ModelInput<'alarm'>>) => {
    const answer = await syncWorker().writes.update('alarm', alarm.id, patch);
    setError('error' in answer ? alarmText(i18n, callErrorText(answer.error)) : null);
  };
  return (
    <Stack gap="lg" data-testid="alarm-page" data-id={alarm.id}>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={1}>
            <Name>{a.name}</Name>
          </Title>
          <Group gap="xs">
            <Badge color={severityColor(a.severity)} variant="light">
              {severityLabel(i18n, a.severity)}
            </Badge>
            <StateBadge alarm={a} now={now} />
            {a.enabled ? null : (
              <Badge variant="outline" color="gray" data-testid="alarm-disabled">
                <Trans>Disabled</Trans>
              </Badge>
            )}
            {alarm.pending ? (
              <Badge color="orange" variant="light" data-testid="alarm-pending">
                <Trans>Not synced yet</Trans>
              </Badge>
            ) : null}
          </Group>
        </Stack>
        <Group gap="xs">
          {a.status === null || a.status.raised_at === null ? null : (
            <InspectButton assetId={a.asset_id} at={a.status.raised_at} alarmId={alarm.id} />
          )}
          {can('alarm::edit') ? (
            <>
              <Switch
                label={t`Enabled`}
                checked={a.enabled}
                onChange={(e) => void update({ enabled: e.currentTarget.checked })}
                data-testid="alarm-enabled"
              />
              <Button variant="light" onClick={() => setEditing(true)} data-testid="alarm-edit">
                <Trans>Edit</Trans>
              </Button>
            </>
          ) : null}
        </Group>
      </Group>
      {error === null ? null : (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Modal opened={editing} onClose={() => setEditing(false)} title={t`Edit alarm`} size="xl">
        {editing ? (
          <Suspense fallback={<Loader role="status" aria-label={t`Loading the form…`} />}>
            <AlarmForm alarm={alarm} onDone={() => setEditing(false)} />
          </Suspense>
        ) : null}
      </Modal>

      <HelpLink number={a.help_article} />
      <StatusPanel alarm={alarm} now={now} />
      {can('alarm::acknowledge') ? <Acknowledge alarm={alarm} /> : null}
      {can('alarm::edit') ? <Shelve alarm={alarm} now={now} onUpdate={update} /> : null}
      <RulePanel alarm={alarm} />
      <AckHistory alarm={alarm} now={now} />
      <AlarmEvents alarm={alarm} now={now} />
      {can('alarm::delete') ? <DeleteAlarm alarm={alarm} /> : null}
    </Stack>
  );
}

function Field(props: { readonly label: ReactNode; readonly children: ReactNode }) {
  return (
    <Box>
      <Text component="dt" size="sm" c="dimmed" fw={500}>
        {props.label}
      </Text>
      <Box component="dd" m={0}>
        {props.children}
      </Box>
    </Box>
  );
}

const none = (
  <Text span c="dimmed">
    –
  </Text>
);

function StatusPanel({
  alarm,
  now,
}: {
  readonly alarm: LocalModel<'alarm'>;
  readonly now: number;
}) {
  const { i18n } = useLingui();
  const acknowledgedHere = useAcknowledgedHere().has(alarm.id);
  const a = alarm.attributes;
  const s = a.status;
  return (
    <Paper withBorder p="md" radius="sm" data-testid="alarm-status">
      <Title order={2} size="h4" mb="sm">
        <Trans>Status</Trans>
      </Title>
      <SimpleGrid component="dl" cols={{ base: 1, sm: 3 }} m={0}>
        <Field label={<Trans>Since</Trans>}>
          {s === null || s.since === null ? none : <TimeAgo at={s.since} now={now} />}
        </Field>
        <Field label={<Trans>Value</Trans>}>
          <AlarmValue value={s?.value ?? null} streamId={a.datastream_id} unit={a.unit} />
        </Field>
        <Field label={<Trans>Raised</Trans>}>
          {s === null || s.count === 0 ? (
            none
          ) : (
            <Text span data-testid="alarm-status-count">
              ×{s.count}
            </Text>
          )}
        </Field>
        <Field label={<Trans>Last raised</Trans>}>
          {s === null || s.raised_at === null ? none : absoluteTime(i18n, s.raised_at)}
        </Field>
        <Field label={<Trans>Cleared</Trans>}>
          {s === null || s.cleared_at === null ? none : absoluteTime(i18n, s.cleared_at)}
        </Field>
        <Field label={<Trans>Acknowledged</Trans>}>
          {s === null || s.raised_at === null ? (
            none
          ) : s.acknowledged && s.acknowledged_by !== null ? (
            <Text span data-testid="alarm-acknowledged-by">
              <UserName id={s.acknowledged_by} />
              {s.acknowledged_at === null ? null : `, ${absoluteTime(i18n, s.acknowledged_at)}`}
              {s.note === null || s.note === '' ? null : ` – ${s.note}`}
            </Text>
          ) : acknowledgedHere ? (
            <AcknowledgedHere />
          ) : (
            <Text span c="red" data-testid="alarm-not-acknowledged">
              <Trans>Not acknowledged</Trans>
            </Text>
          )}
        </Field>
      </SimpleGrid>
      <DeliveryNote status={s} />
    </Paper>
  );
}

/**
 * The acknowledgement: an `alarm_ack` made here with its own id, so offline it waits in the
 * outbox (shown as waiting, through reloads) and lands once. A refusal (nothing left to
 * acknowledge) shows the server's words.
 */
function Acknowledge({ alarm }: { readonly alarm: LocalModel<'alarm'> }) {
  const { t, i18n } = useLingui();
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const acks = useLiveQuery({ type: 'alarm_ack', parent: { type: 'alarm', id: alarm.id } });
  const waiting = (acks?.items ?? []).some((k) => k.pending);
  // Every acknowledgement of this alarm seen here: a refusal comes after its model is rolled back.
  const seen = useRef(new Set<string>());
  for (const k of acks?.items ?? []) seen.current.add(k.id);
  useEffect(
    () =>
      onSyncEvent((event) => {
        if (event.name !== 'write-rejected' || event.write.type !== 'alarm_ack') return;
        if (!seen.current.has(event.write.id)) return;
        setRefused(alarmText(i18n, event.message));
      }),
    [i18n],
  );
  const s = alarm.attributes.status;
  const raised = s !== null && s.raised_at !== null && !s.acknowledged;
  if (!raised && !waiting && refused === null) return null;
  const acknowledge = async () => {
    setBusy(true);
    setRefused(null);
    const id = uuidv7();
    seen.current.add(id);
    const answer = await syncWorker().writes.create(
      'alarm_ack',
      { alarm_id: alarm.id, asset_id: alarm.attributes.asset_id, note: note.trim() },
      id,
    );
    setBusy(false);
    if ('error' in answer) {
      setRefused(alarmText(i18n, callErrorText(answer.error)));
      return;
    }
    setNote('');
  };
  return (
    <Paper withBorder p="md" radius="sm" data-testid="alarm-acknowledge">
      <Stack gap="sm">
        {waiting ? (
          <Alert color="orange" data-testid="alarm-ack-waiting">
            <Trans>
              Acknowledged on this device. It is sent to the server as soon as the connection
              allows.
            </Trans>
          </Alert>
        ) : raised ? (
          <>
            <Textarea
              label={t`Note (optional)`}
              value={note}
              maxLength={ALARM_LIMITS.maxNote}
              onChange={(e) => setNote(e.currentTarget.value)}
              autosize
              minRows={2}
            />
            <Group>
              <Button onClick={() => void acknowledge()} loading={busy} data-testid="alarm-ack">
                <Trans>Acknowledge</Trans>
              </Button>
            </Group>
          </>
        ) : null}
        {refused === null ? null : (
          <Alert color="red" role="alert" data-testid="alarm-ack-refused">
            {refused}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

const SHELF_HOURS = [1, 8, 24] as const;

/** Silenced for maintenance until a time (evaluated and shown, nobody told), or no longer. */
function Shelve(props: {
  readonly alarm: LocalModel<'alarm'>;
  readonly now: number;
  readonly onUpdate: (patch: { shelved_until: number | null }) => Promise<void>;
}) {
  const { t, i18n } = useLingui();
  const [until, setUntil] = useState('');
  const [invalid, setInvalid] = useState(false);
  const a = props.alarm.attributes;
  const shelved = isShelved(a, props.now);
  const shelveUntil = () => {
    const at = new Date(until).getTime();
    if (!Number.isFinite(at) || at <= Date.now()) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    void props.onUpdate({ shelved_until: at });
  };
  return (
    <Paper withBorder p="md" radius="sm" data-testid="alarm-shelve">
      <Stack gap="sm">
        <Title order={2} size="h4">
          <Trans>Shelve for maintenance</Trans>
        </Title>
        {shelved && a.shelved_until !== null ? (
          <Group>
            <Text data-testid="alarm-shelved-until">
              <Trans>Shelved until {absoluteTime(i18n, a.shelved_until)}: nobody is told.</Trans>
            </Text>
            <Button
              variant="light"
              onClick={() => void props.onUpdate({ shelved_until: null })}
              data-testid="alarm-unshelve"
            >
              <Trans>Unshelve</Trans>
            </Button>
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            <Trans>A shelved alarm is still evaluated and shown, but nobody is told.</Trans>
          </Text>
        )}
        <Group align="flex-end" gap="xs">
          {SHELF_HOURS.map((h) => (
            <Button
              key={h}
              variant="default"
              onClick={() => void props.onUpdate({ shelved_until: Date.now() + h * 3_600_000 })}
              data-testid={`alarm-shelve-${h}h`}
            >
              <Trans>{h} h</Trans>
            </Button>
          ))}
          <TextInput
            type="datetime-local"
            label={t`Until`}
            value={until}
            onChange={(e) => setUntil(e.currentTarget.value)}
            error={invalid ? t`Choose a time in the future.` : undefined}
            data-testid="alarm-shelve-until"
          />
          <Button variant="default" onClick={shelveUntil} disabled={until === ''}>
            <Trans>Shelve until then</Trans>
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function RulePanel({ alarm }: { readonly alarm: LocalModel<'alarm'> }) {
  const { i18n } = useLingui();
  const a = alarm.attributes;
  const unit = a.unit === null || a.unit === '' ? '' : ` ${a.unit}`;
  const limitText = (v: number | null) => (v === null ? none : `${i18n.number(v)}${unit}`);
  return (
    <Paper withBorder p="md" radius="sm" data-testid="alarm-rule">
      <Title order={2} size="h4" mb="sm">
        <Trans>Rule</Trans>
      </Title>
      <SimpleGrid component="dl" cols={{ base: 1, sm: 3 }} m={0}>
        <Field label={<Trans>Asset</Trans>}>
          <AssetName id={a.asset_id} />
        </Field>
        <Field label={<Trans>Data stream</Trans>}>
          <StreamName id={a.datastream_id} assetId={a.asset_id} />
        </Field>
        <Field label={<Trans>Kind</Trans>}>{kindLabel(i18n, a.kind)}</Field>
        {a.kind === 'limit' ? (
          <>
            <Field label={<Trans>Condition</Trans>}>{conditionLabel(i18n, a.condition)}</Field>
            <Field label={<Trans>Upper limit</Trans>}>{limitText(a.upper_limit)}</Field>
            <Field label={<Trans>Lower limit</Trans>}>{limitText(a.lower_limit)}</Field>
            <Field label={<Trans>Delay</Trans>}>
              <Trans>{a.delay_s} s</Trans>
            </Field>
            <Field label={<Trans>Hysteresis</Trans>}>{`${i18n.number(a.hysteresis)}${unit}`}</Field>
          </>
        ) : (
          <Field label={<Trans>After</Trans>}>
            <Trans>{Math.round((a.after_s ?? 0) / 60)} min</Trans>
          </Field>
        )}
      </SimpleGrid>
      <Title order={3} size="h5" mt="md" mb="xs">
        <Trans>Recipients</Trans>
      </Title>
      {a.recipients.length === 0 ? (
        <Text size="sm" c="dimmed">
          <Trans>Nobody is told.</Trans>
        </Text>
      ) : (
        <Stack gap={2}>
          {a.recipients.map((r) => (
            <Text size="sm" key={'user_id' in r ? r.user_id : r.email}>
              {'user_id' in r ? <UserName id={r.user_id} /> : r.email}
              {': '}
              {r.channels.map((c) => channelLabel(i18n, c)).join(', ')}
            </Text>
          ))}
        </Stack>
      )}
    </Paper>
  );
}

/** The acknowledgements of this alarm in the local store: who, when, with which note. */
function AckHistory({ alarm, now }: { readonly alarm: LocalModel<'alarm'>; readonly now: number }) {
  const { t } = useLingui();
  const acks = useLiveQuery({ type: 'alarm_ack', parent: { type: 'alarm', id: alarm.id } });
  const items = [...(acks?.items ?? [])].sort(
    (x, y) => (y.attributes.at ?? Infinity) - (x.attributes.at ?? Infinity),
  );
  return (
    <Stack gap="xs" data-testid="alarm-history">
      <Title order={2} size="h4">
        <Trans>History</Trans>
      </Title>
      {items.length === 0 ? (
        <Text size="sm" c="dimmed">
          <Trans>Not acknowledged yet.</Trans>
        </Text>
      ) : (
        <Table aria-label={t`Acknowledgements`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">
                <Trans>Acknowledged by</Trans>
              </Table.Th>
              <Table.Th scope="col">
                <Trans>When</Trans>
              </Table.Th>
              <Table.Th scope="col">
                <Trans>Note</Trans>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((k) => (
              <Table.Tr key={k.id} data-testid="alarm-ack-row" data-pending={k.pending}>
                <Table.Td>
                  {k.attributes.by_user === null ? (
                    <Trans>You (waiting to be sent)</Trans>
                  ) : (
                    <UserName id={k.attributes.by_user} />
                  )}
                </Table.Td>
                <Table.Td>
                  {k.attributes.at === null ? none : <TimeAgo at={k.attributes.at} now={now} />}
                </Table.Td>
                <Table.Td>{k.attributes.note === '' ? none : k.attributes.note}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

function DeleteAlarm({ alarm }: { readonly alarm: LocalModel<'alarm'> }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Isolated: the name is inside the confirm's texts.
  const name = isolate(alarm.attributes.name);
  const remove = async () => {
    const answer = await syncWorker().writes.remove('alarm', alarm.id);
    if ('error' in answer) {
      setError(alarmText(i18n, callErrorText(answer.error)));
      return;
    }
    await navigate({ to: alarmPaths.list() });
  };
  if (!asking) {
    return (
      <Group>
        <Button color="red" variant="outline" onClick={() => setAsking(true)}>
          <Trans>Delete alarm</Trans>
        </Button>
      </Group>
    );
  }
  return (
    <Alert color="red" role="alertdialog" title={t`Delete ${name}?`}>
      <Stack gap="sm">
        <Text size="sm">
          <Trans>The alarm and its acknowledgements are deleted. This cannot be undone.</Trans>
        </Text>
        {error === null ? null : (
          <Text c="red" size="sm" role="alert">
            {error}
          </Text>
        )}
        <Group>
          <Button variant="default" onClick={() => setAsking(false)} data-autofocus>
            <Trans>Keep it</Trans>
          </Button>
          <Button color="red" onClick={() => void remove()} data-testid="alarm-delete-confirm">
            <Trans>Delete {name}</Trans>
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
