import './catalogues';
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { Link, useParams } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import {
  personName,
  SERVICE_PERMISSIONS,
  serviceMovesFrom,
  serviceRolesOf,
  type MachineContext,
  type ServiceMove,
  type ServiceRequestAttributes,
  type ServiceRole,
} from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { EmptyState } from '../../components/empty-state';
import { Name } from '../../components/name';
import { useCan } from '../../permissions/permissions';
import { sessionAtom } from '../../state/session';
import { useLiveModel, useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { useWriteOutcome } from '../../sync/write-outcome';
import { devicePaths } from '../devices/paths';
import { valueWithUnit } from '../devices/stream-values';
import { CallPanel } from './call/call-panel';
import { servicePaths } from './paths';
import { SERVICE_STATE_COLORS, SERVICE_STATE_WORDS } from '../states/state-words';
import { SERVICE_ACTION_WORDS } from './service-texts';

/**
 * /app/service/{id}/details (issue 34 item 2): one service request, live: its machine, its
 * state and agent, the moves the shared table allows this user (and only those), the machine's
 * context sent with it, and its calls.
 */
export function ServiceRequestPage() {
  const { id = '' }: { id?: string } = useParams({ strict: false });
  const state = useLiveModel('service_request', id);
  if (state.name === 'loading') return null;
  if (state.name === 'missing')
    return <EmptyState title={<Trans>This service request does not exist (any more).</Trans>} />;
  return <RequestView request={state.model} />;
}

type Members = readonly LocalModel<'user'>[] | undefined;

const nameOf = (m: LocalModel<'user'>) => personName(m.attributes);

function RequestView({ request }: { readonly request: LocalModel<'service_request'> }) {
  const { i18n } = useLingui();
  const can = useCan();
  const userId = useAtomValue(sessionAtom)?.user.id ?? null;
  // A request made here and not yet synced is this user's (the server stamps it so).
  const a =
    request.pending && request.attributes.reported_by === null
      ? { ...request.attributes, reported_by: userId }
      : request.attributes;
  const roles = serviceRolesOf(a, userId, can);
  const members = useServiceAgents();
  const asset = useLiveModel('asset', a.asset_id);
  const [error, took] = useWriteOutcome();
  const update = async (change: Partial<ServiceRequestAttributes>) =>
    took(await syncWorker().writes.update('service_request', request.id, change));
  const date = new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Stack gap="md" data-testid="service-request-page" maw={900}>
      <Anchor component={Link} to={servicePaths.active()} size="sm">
        <Trans>Service requests</Trans>
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <Title order={1}>
          <Name testId="service-heading">{a.title}</Name>
        </Title>
        <Group gap="xs">
          <Badge
            color={SERVICE_STATE_COLORS[a.state]}
            variant="light"
            size="lg"
            data-testid="service-state"
          >
            {i18n._(SERVICE_STATE_WORDS[a.state])}
          </Badge>
          {request.pending ? (
            <Badge color="orange" variant="light">
              <Trans>Not synced yet</Trans>
            </Badge>
          ) : null}
        </Group>
      </Group>
      <Group gap="xl">
        <Text size="sm">
          <Trans>Machine:</Trans>{' '}
          {asset.name === 'found' ? (
            <Anchor
              component={Link}
              to={devicePaths.details(a.asset_id)}
              data-testid="service-asset"
            >
              {asset.model.attributes.name}
            </Anchor>
          ) : (
            '–'
          )}
        </Text>
        <Text size="sm" data-testid="service-agent">
          <Trans>Agent:</Trans> {a.assigned_to === null ? '–' : (a.agent_name ?? '–')}
        </Text>
        {a.reported_at === null ? null : (
          <Text size="sm" c="dimmed">
            <Trans>Reported {date.format(a.reported_at)}</Trans>
          </Text>
        )}
      </Group>
      <Text style={{ whiteSpace: 'pre-wrap' }} data-testid="service-description">
        {a.description}
      </Text>
      <Moves request={a} roles={roles} members={members} onMove={update} />
      {error === null ? null : (
        <Alert color="red" variant="light" role="alert" data-testid="service-error">
          {error}
        </Alert>
      )}
      <Context request={a} pending={request.pending} />
      {request.pending ? null : <CallPanel requestId={request.id} request={a} />}
      <Calls request={a} />
    </Stack>
  );
}

/**
 * Who a request may be assigned to: the members whose roles hold the agent's permission (the
 * server refuses anyone else, as the request's calls go to its agent alone). A viewer who cannot
 * read the roles is offered every member it sees, and the server says it if one is no agent.
 */
function useServiceAgents(): Members {
  const members = useLiveQuery({ type: 'user', limit: 1000 })?.items;
  const roles = useLiveQuery({ type: 'role', limit: 1000 })?.items;
  // Until the roles are read, nobody (every member, a moment, was a choice the server refuses).
  if (members === undefined || roles === undefined) return undefined;
  if (roles.length === 0) return members;
  const agentRoles = new Set(
    roles
      .filter((r) => r.attributes.permissions.includes(SERVICE_PERMISSIONS.agent))
      .map((r) => r.id),
  );
  return members.filter((m) => m.attributes.role_ids.some((id) => agentRoles.has(id)));
}

/** The table's moves this user may make from the request's state. */
function Moves(props: {
  readonly request: ServiceRequestAttributes;
  readonly roles: ReadonlySet<ServiceRole>;
  readonly members: Members;
  readonly onMove: (change: Partial<ServiceRequestAttributes>) => Promise<boolean>;
}) {
  const { t, i18n } = useLingui();
  const moves = serviceMovesFrom(props.request.state, props.roles);
  const [agent, setAgent] = useState<string | null>(null);
  const [missing, setMissing] = useState<string | null>(null);
  if (moves.length === 0) return null;
  const needsAgent = moves.some((m) => m.needs === 'assignee');
  const move = async (m: ServiceMove) => {
    const change: Partial<ServiceRequestAttributes> = { state: m.to };
    if (m.needs === 'assignee') {
      if (agent === null) {
        setMissing(t`Choose the agent it is assigned to.`);
        return;
      }
      change.assigned_to = agent;
    }
    if (m.needs === 'no_assignee') change.assigned_to = null;
    setMissing(null);
    await props.onMove(change);
  };
  return (
    <Paper withBorder p="md" radius="md" data-testid="service-moves">
      <Stack gap="sm">
        {needsAgent ? (
          <Select
            label={t`Agent`}
            value={agent}
            onChange={setAgent}
            data={(props.members ?? []).map((m) => ({ value: m.id, label: nameOf(m) }))}
            nothingFoundMessage={t`No service agent: a role needs the service agent permission.`}
            searchable
            maw={320}
            data-testid="service-agent-select"
          />
        ) : null}
        {missing === null ? null : (
          <Text c="red" size="sm" role="alert">
            {missing}
          </Text>
        )}
        <Group gap="xs">
          {moves.map((m) => (
            <Button
              key={`${m.from}-${m.to}-${m.action}`}
              variant={m.to === 'closed' ? 'light' : 'filled'}
              onClick={() => void move(m)}
              data-testid={`service-move-${m.to}`}
            >
              {i18n._(SERVICE_ACTION_WORDS[m.action])}
            </Button>
          ))}
        </Group>
      </Stack>
    </Paper>
  );
}

/** The machine's context the server attached (with consent), or why there is none. */
function Context(props: { readonly request: ServiceRequestAttributes; readonly pending: boolean }) {
  const { i18n } = useLingui();
  const { request } = props;
  const context: MachineContext | null = request.context;
  if (!request.consent)
    return (
      <Text size="sm" c="dimmed" data-testid="service-context-none">
        <Trans>Sent without the machine’s context.</Trans>
      </Text>
    );
  if (context === null)
    return (
      <Text size="sm" c="dimmed" data-testid="service-context-waiting">
        <Trans>The machine’s context is attached when the request reaches the server.</Trans>
      </Text>
    );
  const date = new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'medium', timeStyle: 'medium' });
  return (
    <Paper withBorder p="md" radius="md" data-testid="service-context">
      <Stack gap="sm">
        <Title order={2} size="h4">
          <Trans>The machine when the request arrived</Trans>
        </Title>
        <Text size="sm" c="dimmed">
          {date.format(context.taken_at)}
          {' · '}
          <Trans>Gateway agent version:</Trans>{' '}
          <span data-testid="service-context-agent">{context.agent_version ?? '–'}</span>
        </Text>
        <Text fw={500} size="sm">
          <Trans>Active alarms</Trans>
        </Text>
        {context.alarms.length === 0 ? (
          <Text size="sm" c="dimmed">
            <Trans>None</Trans>
          </Text>
        ) : (
          <Stack gap={2} data-testid="service-context-alarms">
            {context.alarms.map((alarm) => (
              <Text key={alarm.id} size="sm">
                {alarm.name}
                {alarm.since === null ? null : ` · ${date.format(alarm.since)}`}
              </Text>
            ))}
          </Stack>
        )}
        <Text fw={500} size="sm">
          <Trans>Latest values</Trans>
        </Text>
        {context.values.length === 0 ? (
          <Text size="sm" c="dimmed">
            <Trans>None</Trans>
          </Text>
        ) : (
          <Table data-testid="service-context-values" striped>
            <Table.Tbody>
              {context.values.map((v) => (
                <Table.Tr key={v.stream_id}>
                  <Table.Th scope="row">{v.name}</Table.Th>
                  <Table.Td data-testid="service-context-value">
                    {valueWithUnit(
                      i18n,
                      { type: v.type ?? 'number', unit: v.unit, stateTexts: v.state_texts ?? {} },
                      v.value,
                    )}
                  </Table.Td>
                  <Table.Td>{date.format(v.ts)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Paper>
  );
}

/** The request's calls: when each began and ended, who took part. */
function Calls(props: { readonly request: ServiceRequestAttributes }) {
  const { i18n } = useLingui();
  if (props.request.calls.length === 0) return null;
  const date = new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Paper withBorder p="md" radius="md" data-testid="service-calls">
      <Stack gap="xs">
        <Title order={2} size="h4">
          <Trans>Calls</Trans>
        </Title>
        {props.request.calls.map((call) => (
          <Text key={call.id} size="sm" data-testid="service-call-record">
            {date.format(call.started_at)}
            {' – '}
            {call.ended_at === null ? <Trans>ongoing</Trans> : date.format(call.ended_at)}
            {' · '}
            {call.participants.map((p) => p.name).join(', ')}
          </Text>
        ))}
      </Stack>
    </Paper>
  );
}
