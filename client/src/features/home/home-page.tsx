import { useMemo, useState, type ReactNode } from 'react';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { appPaths } from '@plant/shared-schema';
import { Name } from '../../components/name';
import { useCan } from '../../permissions/permissions';
import { recentVisitsAtom, type RecentKind, type RecentVisit } from '../../state/recent';
import { useLiveModel, useLiveQuery } from '../../sync/hooks';
import { useAcknowledgedHere, usePendingWrites } from '../../sync/pending';
import { serverReachableAtom } from '../../sync/status';
import { alarmPaths } from '../alarms/alarm-paths';
import { compareAlarms, needsAttention } from '../alarms/alarm-rows';
import { severityColor, severityLabel } from '../alarms/alarm-summary';
import { textOf } from '../devices/asset-texts';
import { dashboardPaths } from '../dashboards/paths';
import { devicePaths } from '../devices/paths';
import { OnlineBadge } from '../gateway-pages/gateway-texts';
import { SyncDetails } from '../shell/sync-details';

/** Rows a section lists before "All …" (the count says how many there are). */
const FIRST = 5;

/**
 * /app/home (issue 30 item 4): what needs the user now, all read from the local store, so it
 * works offline too (and then says the states are the last known): the active unacknowledged
 * alarms, the gateways offline, the changes waiting to be sent, and what the user opened lately
 * on this device.
 */
export function HomePage() {
  const reachable = useAtomValue(serverReachableAtom);
  const can = useCan();
  return (
    <Stack gap="md" data-testid="home">
      <Title order={1}>
        <Trans>Home</Trans>
      </Title>
      {reachable ? null : (
        <Alert color="gray" data-testid="home-last-known">
          <Trans>
            This device is offline: alarms and gateways show their last known state, and your
            changes are sent when the connection is back.
          </Trans>
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        {can('alarm::view') ? <AlarmsSection /> : null}
        {can('gateway::view') ? <GatewaysSection /> : null}
        <PendingSection />
        <RecentSection />
      </SimpleGrid>
    </Stack>
  );
}

function Section(props: {
  readonly id: string;
  readonly title: ReactNode;
  readonly children: ReactNode;
}) {
  const titleId = `${props.id}-title`;
  return (
    <Paper
      withBorder
      p="md"
      radius="md"
      component="section"
      aria-labelledby={titleId}
      data-testid={props.id}
      style={{ minWidth: 0 }}
    >
      <Stack gap="xs">
        <Title order={2} size="h4" id={titleId}>
          {props.title}
        </Title>
        {props.children}
      </Stack>
    </Paper>
  );
}

function List(props: { readonly children: ReactNode }) {
  return (
    <Stack component="ul" gap={6} p={0} m={0} style={{ listStyle: 'none' }}>
      {props.children}
    </Stack>
  );
}

function Empty(props: { readonly children: ReactNode }) {
  return (
    <Text size="sm" c="dimmed" data-testid="home-empty">
      {props.children}
    </Text>
  );
}

function Loading() {
  return <Skeleton height={40} />;
}

/** Raised, not acknowledged (here or anywhere), not shelved: critical first, then the newest. */
function AlarmsSection() {
  const { t, i18n } = useLingui();
  const result = useLiveQuery({ type: 'alarm', limit: 1000 });
  const acknowledgedHere = useAcknowledgedHere();
  const alarms = useMemo(() => {
    if (result === undefined) return undefined;
    const now = Date.now();
    return result.items
      .filter((a) => needsAttention(a.attributes, now) && !acknowledgedHere.has(a.id))
      .sort((a, b) => compareAlarms(a.attributes, b.attributes, now));
  }, [result, acknowledgedHere]);
  const count = alarms?.length ?? 0;
  return (
    <Section id="home-alarms" title={t`Active alarms not acknowledged`}>
      {alarms === undefined ? (
        <Loading />
      ) : count === 0 ? (
        <Empty>
          <Trans>No alarm needs you.</Trans>
        </Empty>
      ) : (
        <>
          <Text size="sm" data-testid="home-count" data-count={count}>
            <Plural
              value={count}
              one="# alarm is active and not acknowledged."
              other="# alarms are active and not acknowledged."
            />
          </Text>
          <List>
            {alarms.slice(0, FIRST).map((a) => (
              <li key={a.id} data-testid="home-alarm" data-id={a.id}>
                <Group gap="xs" wrap="nowrap">
                  <Badge
                    color={severityColor(a.attributes.severity)}
                    variant="filled"
                    size="sm"
                    style={{ flexShrink: 0 }}
                  >
                    {severityLabel(i18n, a.attributes.severity)}
                  </Badge>
                  <Anchor
                    component={Link}
                    to={alarmPaths.alarm(a.id)}
                    size="sm"
                    style={{ overflowWrap: 'anywhere' }}
                  >
                    <Name>{a.attributes.name}</Name>
                  </Anchor>
                  <AssetName id={a.attributes.asset_id} />
                </Group>
              </li>
            ))}
          </List>
        </>
      )}
      <Anchor component={Link} to={alarmPaths.list()} size="sm">
        <Trans>All alarms</Trans>
      </Anchor>
    </Section>
  );
}

function AssetName({ id }: { readonly id: string }) {
  const state = useLiveModel('asset', id);
  if (state.name !== 'found') return null;
  return (
    <Text span size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
      <Name>{state.model.attributes.name}</Name>
    </Text>
  );
}

function GatewaysSection() {
  const { t } = useLingui();
  const result = useLiveQuery({ type: 'gateway', limit: 1000 });
  const offline = useMemo(
    () => result?.items.filter((g) => g.attributes.connection !== 'online'),
    [result],
  );
  const count = offline?.length ?? 0;
  return (
    <Section id="home-gateways" title={t`Gateways offline`}>
      {offline === undefined ? (
        <Loading />
      ) : count === 0 ? (
        <Empty>
          {result?.items.length === 0 ? (
            <Trans>This account has no gateways yet.</Trans>
          ) : (
            <Trans>Every gateway is online.</Trans>
          )}
        </Empty>
      ) : (
        <>
          <Text size="sm" data-testid="home-count" data-count={count}>
            <Plural value={count} one="# gateway is offline." other="# gateways are offline." />
          </Text>
          <List>
            {offline.slice(0, FIRST).map((g) => (
              <li key={g.id} data-testid="home-gateway" data-id={g.id}>
                <Group gap="xs" wrap="nowrap" justify="space-between">
                  <Anchor
                    component={Link}
                    to={appPaths.gatewayDetails(g.id)}
                    size="sm"
                    style={{ overflowWrap: 'anywhere' }}
                  >
                    <Name>{textOf(g.attributes, 'name')}</Name>
                  </Anchor>
                  <OnlineBadge gateway={g} size="sm" />
                </Group>
              </li>
            ))}
          </List>
        </>
      )}
      <Anchor component={Link} to="/app/gateways/list" size="sm">
        <Trans>All gateways</Trans>
      </Anchor>
    </Section>
  );
}

/** The changes made on this device and not sent yet; the sync details' list opens below. */
function PendingSection() {
  const { t } = useLingui();
  const writes = usePendingWrites();
  const [open, setOpen] = useState(false);
  const count = writes?.length ?? 0;
  const refused = writes?.filter((w) => w.state === 'failed').length ?? 0;
  return (
    <Section id="home-pending" title={t`Changes waiting to be sent`}>
      {writes === null ? (
        <Loading />
      ) : count === 0 ? (
        <Empty>
          <Trans>Nothing is waiting: every change has been sent.</Trans>
        </Empty>
      ) : (
        <>
          <Text size="sm" data-testid="home-count" data-count={count}>
            <Plural
              value={count}
              one="# change made on this device is not sent yet."
              other="# changes made on this device are not sent yet."
            />{' '}
            {refused === 0 ? null : (
              <Text span c="red" size="sm">
                <Plural value={refused} one="# was refused." other="# were refused." />
              </Text>
            )}
          </Text>
          <Group>
            <Button
              size="compact-sm"
              variant="light"
              aria-expanded={open}
              aria-controls={open ? 'home-pending-details' : undefined}
              onClick={() => setOpen((o) => !o)}
              data-testid="home-pending-toggle"
            >
              {open ? <Trans>Hide the changes</Trans> : <Trans>Show the changes</Trans>}
            </Button>
          </Group>
          {open ? (
            <div id="home-pending-details">
              <SyncDetails />
            </div>
          ) : null}
        </>
      )}
    </Section>
  );
}

function RecentSection() {
  const { t } = useLingui();
  const visits = useAtomValue(recentVisitsAtom);
  return (
    <Section id="home-recent" title={t`Recently opened`}>
      {visits.length === 0 ? (
        <Empty>
          <Trans>Nothing opened yet: the assets and dashboards you open show here.</Trans>
        </Empty>
      ) : (
        <List>
          {visits.map((v) => (
            <RecentItem key={`${v.kind}:${v.id}`} visit={v} />
          ))}
        </List>
      )}
    </Section>
  );
}

function RecentItem({ visit }: { readonly visit: RecentVisit }) {
  return visit.kind === 'asset' ? <RecentAsset id={visit.id} /> : <RecentDashboard id={visit.id} />;
}

/**
 * A dashboard by its name where the local store has it (issue 31), else by the id visited. The
 * model is remembered: opened from here, the dashboard's page shows it in its first render.
 */
function RecentDashboard({ id }: { readonly id: string }) {
  const state = useLiveModel('dashboard', id, { remembered: true });
  const found = state.name === 'found' ? state.model : null;
  return (
    <RecentRow kind="dashboard" id={id}>
      <Anchor
        component={Link}
        to={
          found === null ? dashboardPaths.of(id, NO_OWNER) : dashboardPaths.of(id, found.attributes)
        }
        size="sm"
        style={{ overflowWrap: 'anywhere' }}
      >
        <Name>{found === null ? id : found.attributes.name}</Name>
      </Anchor>
    </RecentRow>
  );
}

const NO_OWNER = { asset_id: null, template_id: null } as const;

function RecentRow(props: {
  readonly kind: RecentKind;
  readonly id: string;
  readonly children: ReactNode;
}) {
  const { t } = useLingui();
  const { kind, id } = props;
  return (
    <li data-testid="home-recent-item" data-kind={kind} data-id={id}>
      <Group gap="xs" wrap="nowrap">
        <Badge variant="light" size="sm" color="gray" style={{ flexShrink: 0 }}>
          {kind === 'asset' ? t`Asset` : t`Dashboard`}
        </Badge>
        {props.children}
      </Group>
    </li>
  );
}

/** An opened asset under its current name (one deleted since is left out). */
function RecentAsset({ id }: { readonly id: string }) {
  const state = useLiveModel('asset', id);
  if (state.name === 'missing') return null;
  return (
    <RecentRow kind="asset" id={id}>
      {state.name === 'loading' ? (
        <Skeleton height={16} width={120} />
      ) : (
        <Anchor
          component={Link}
          to={devicePaths.details(id)}
          size="sm"
          style={{ overflowWrap: 'anywhere' }}
        >
          <Name>{state.model.attributes.name}</Name>
        </Anchor>
      )}
    </RecentRow>
  );
}
