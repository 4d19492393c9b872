import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Anchor,
  Button,
  Code,
  CopyButton,
  Group,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { Link, useParams } from '@tanstack/react-router';
import {
  apiPaths,
  appPaths,
  gatewayAttributesSchema,
  gatewayCredentialListSchema,
  gatewayCredentialsMadeSchema,
  gatewayProblems,
  ROUTE_REQUIREMENTS,
  STATIC_IP_MISSING,
  type GatewayCredentialList,
} from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { EmptyState } from '../../components/empty-state';
import { DataTable } from '../../components/data-table';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { useMayEnter } from '../../permissions/permissions';
import { useMayEdit } from '../../permissions/may-edit';
import { useLiveModel, useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { useFormBase } from '../../components/changed-fields';
import { textOf } from '../devices/asset-texts';
import { InlineEdit, ValueText } from '../devices/inline-edit';
import { ConnectionState, LastSeen, OnlineBadge } from './gateway-texts';
import { QrCodeButton } from '../qr/qr-code-button';
import { Name } from '../../components/name';
import { useUnsaved } from '../../components/unsaved';

/**
 * /app/gateways/{id}/details (gateway::view): the gateway from the local store, live; its agent's
 * report; the network settings (spec 001 §3, §8) saved through the worker (offline too); the
 * agent's key (made and revoked on the server: that needs the connection); its connections.
 */
export function GatewayDetailsPage() {
  const { id = '' }: { id?: string } = useParams({ strict: false });
  const state = useLiveModel('gateway', id);
  if (state.name === 'loading') return <Skeleton height={240} />;
  if (state.name === 'missing') {
    return (
      <EmptyState title={<Trans>There is no such gateway in this account</Trans>}>
        <Button component={Link} to={appPaths.gatewayList()} variant="light">
          <Trans>Go to the gateways</Trans>
        </Button>
      </EmptyState>
    );
  }
  return <GatewayDetails gateway={state.model} />;
}

/** The gateway's other screens (issue 30 item 3): its logs, and the terminal where permitted. */
function GatewayScreens({ id }: { readonly id: string }) {
  const mayEnter = useMayEnter();
  return (
    <>
      <Button component={Link} to={appPaths.gatewayLogs(id)} variant="light" size="xs">
        <Trans>Logs</Trans>
      </Button>
      {mayEnter(ROUTE_REQUIREMENTS.gatewayTerminal) ? (
        <Button component={Link} to={appPaths.gatewayTerminal(id)} variant="light" size="xs">
          <Trans>Terminal</Trans>
        </Button>
      ) : null}
    </>
  );
}

function GatewayDetails({ gateway }: { readonly gateway: LocalModel<'gateway'> }) {
  const { t, i18n } = useLingui();
  const canEdit = useMayEdit('gateway', gateway);
  const name = textOf(gateway.attributes, 'name');
  const agent = gateway.attributes.agent;
  const connections = useLiveQuery({
    type: 'connection',
    parent: { type: 'gateway', id: gateway.id },
    limit: 1000,
  });
  return (
    <Stack gap="lg" data-testid="gateway-details" data-id={gateway.id}>
      <Group justify="space-between" align="flex-start">
        <InlineEdit
          label={t`Name`}
          value={name}
          canEdit={canEdit}
          validate={(draft) => {
            const parsed = gatewayAttributesSchema.shape.name.safeParse(draft);
            return parsed.success
              ? { value: parsed.data }
              : { error: translateServerText(i18n, parsed.error.issues[0]?.message ?? '') };
          }}
          save={async (value) => {
            const result = await syncWorker().writes.update('gateway', gateway.id, { name: value });
            return 'error' in result ? translateServerText(i18n, result.error.message) : null;
          }}
          testId="gateway-name"
        >
          <Title order={1}>
            <Name>{name}</Name>
          </Title>
        </InlineEdit>
        <Group gap="xs">
          <OnlineBadge gateway={gateway} />
          <QrCodeButton item={{ kind: 'gateway', id: gateway.id }} name={name} />
          <GatewayScreens id={gateway.id} />
          <Anchor component={Link} to={appPaths.gatewayList()} size="sm">
            <Trans>All gateways</Trans>
          </Anchor>
        </Group>
      </Group>

      <Paper withBorder p="md" radius="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} component="dl" m={0}>
          <Field label={<Trans>Serial number</Trans>}>
            <ValueText
              value={textOf(gateway.attributes, 'serial')}
              empty={<Trans>No serial number</Trans>}
            />
          </Field>
          <Field label={<Trans>Last seen</Trans>}>
            <LastSeen gateway={gateway} />
          </Field>
          <Field label={<Trans>Agent</Trans>}>
            {agent === null || agent === undefined ? (
              <Text c="dimmed" size="sm">
                <Trans>Not reported yet</Trans>
              </Text>
            ) : (
              <AgentVersion version={agent.version} config={agent.config_version} />
            )}
          </Field>
          <Field label={<Trans>Addresses</Trans>}>
            <Text size="sm" ff="monospace">
              {(agent?.addresses ?? [])
                .filter((a) => a.family === 'IPv4')
                .map((a) => `${a.interface} ${a.address}/${a.netmask}`)
                .join(', ') || '–'}
            </Text>
          </Field>
        </SimpleGrid>
        {(agent?.problems ?? []).map((p) => (
          <Alert key={p} color="yellow" mt="sm" data-testid="gateway-problem">
            {translateServerText(i18n, p)}
          </Alert>
        ))}
      </Paper>

      <NetworkSettings gateway={gateway} canEdit={canEdit} />
      {canEdit ? <Credentials gatewayId={gateway.id} /> : null}

      <Stack gap="xs">
        <Title order={2} size="h3">
          <Trans>Connections</Trans>
        </Title>
        <DataTable
          rows={connections?.items}
          columns={[
            {
              id: 'name',
              header: t`Name`,
              cell: (c) => <Name>{textOf(c.attributes, 'name')}</Name>,
            },
            { id: 'protocol', header: t`Protocol`, cell: (c) => textOf(c.attributes, 'protocol') },
            {
              id: 'interval',
              header: t`Read every`,
              cell: (c) => `${i18n.number(Number(c.attributes.interval_ms ?? 0) / 1000)} s`,
            },
            { id: 'state', header: t`State`, cell: (c) => <ConnectionState connection={c} /> },
          ]}
          rowKey={(c) => c.id}
          rowData={() => ({ 'data-testid': 'gateway-connection' })}
          name={{ label: t`Connections` }}
          look={{ striped: true }}
          loading={<Skeleton height={36} />}
          empty={
            <Text c="dimmed">
              <Trans>No connections yet: set them up with Collect data on an asset.</Trans>
            </Text>
          }
        />
      </Stack>
    </Stack>
  );
}

function AgentVersion({
  version,
  config,
}: {
  readonly version: string;
  readonly config: number | null;
}) {
  const running = config === null ? '–' : String(config);
  return (
    <Text size="sm" data-testid="gateway-agent">
      <Trans>
        Version {version}, configuration {running}
      </Trans>
    </Text>
  );
}

function Field({ label, children }: { readonly label: ReactNode; readonly children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="sm" c="dimmed" fw={500} mb={4}>
        {label}
      </Text>
      <dd style={{ margin: 0 }}>{children}</dd>
    </div>
  );
}

const NETWORK_FIELDS = ['ip', 'subnet_mask', 'dns1', 'dns2'] as const;
type NetworkField = (typeof NETWORK_FIELDS)[number];

/** IP, mask, DNS 1 and 2, static or DHCP (spec 001 §3), checked by the shared schema. */
function NetworkSettings({
  gateway,
  canEdit,
}: {
  readonly gateway: LocalModel<'gateway'>;
  readonly canEdit: boolean;
}) {
  const { t, i18n } = useLingui();
  const initial = useCallback(
    () => ({
      ip_assignment: gateway.attributes.ip_assignment === 'static' ? 'static' : 'dhcp',
      ...Object.fromEntries(NETWORK_FIELDS.map((f) => [f, textOf(gateway.attributes, f)])),
    }),
    [gateway],
  );
  const [draft, setDraft] = useState<Record<string, string>>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  // The gateway's model changes as it reports (its connection, when last seen): the stored
  // settings show unless this form has edits of its own.
  const { dirty, changed, saving } = useUnsaved();
  useEffect(() => {
    if (!dirty) setDraft(initial());
  }, [initial, dirty]);
  // The stored settings the draft was taken from: a save writes only what the user changed of
  // them (another admin's change of the others meanwhile stays).
  const base = useFormBase(gateway.attributes, dirty);
  const labels: Record<NetworkField, string> = {
    ip: t`IP address`,
    subnet_mask: t`Subnet mask`,
    dns1: t`DNS 1`,
    dns2: t`DNS 2`,
  };

  // DHCP: the address fields are the stored static ones, shown greyed out; they are neither
  // checked nor sent, so a half-typed static setting never blocks switching to DHCP.
  const dhcp = draft.ip_assignment !== 'static';

  const save = async () => {
    setSaved(false);
    const ended = saving();
    if (dhcp) {
      setErrors({});
      const result = await syncWorker().writes.update('gateway', gateway.id, {
        ip_assignment: 'dhcp',
      });
      if ('error' in result) {
        const fields = result.error.fields ?? {};
        setErrors(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v[0] ?? ''])));
        return;
      }
      setSaved(true);
      ended();
      return;
    }
    const attributes = {
      ip_assignment: draft.ip_assignment,
      ...Object.fromEntries(
        NETWORK_FIELDS.map((f) => [
          f,
          (draft[f] ?? '').trim() === '' ? null : (draft[f] ?? '').trim(),
        ]),
      ),
    };
    const found: Record<string, string> = {};
    const parsed = gatewayAttributesSchema
      .pick({ ip_assignment: true, ip: true, subnet_mask: true, dns1: true, dns2: true })
      .safeParse(attributes);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= issue.message;
    } else {
      const problems = gatewayProblems({ ...gateway.attributes, ...parsed.data });
      for (const [field, messages] of Object.entries(problems))
        found[field] ??= messages[0] ?? STATIC_IP_MISSING;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) {
      const first = NETWORK_FIELDS.find((f) => found[f] !== undefined);
      form.current?.querySelector<HTMLInputElement>(`[data-field="${first}"]`)?.focus();
      return;
    }
    if (!parsed.success) return;
    const written = await base.save(parsed.data, async (change) => {
      const result = await syncWorker().writes.update('gateway', gateway.id, change);
      if (!('error' in result)) return true;
      const fields = result.error.fields ?? {};
      setErrors(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v[0] ?? ''])));
      return false;
    });
    if (!written) return;
    setSaved(true);
    ended();
  };

  return (
    <Paper withBorder p="md" radius="sm" data-testid="gateway-network">
      <form
        ref={form}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <Stack gap="sm">
          <Title order={2} size="h4">
            <Trans>Network settings</Trans>
          </Title>
          <SegmentedControl
            aria-label={t`Address assignment`}
            disabled={!canEdit}
            value={draft.ip_assignment ?? 'dhcp'}
            onChange={(v) => {
              setDraft((d) => ({ ...d, ip_assignment: v }));
              changed();
              if (v !== 'static') setErrors({});
            }}
            data={[
              { value: 'dhcp', label: t`DHCP` },
              { value: 'static', label: t`Static` },
            ]}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {NETWORK_FIELDS.map((f) => (
              <TextInput
                key={f}
                label={labels[f]}
                value={draft[f] ?? ''}
                readOnly={!canEdit}
                disabled={dhcp}
                description={dhcp && f === 'ip' ? t`Assigned by DHCP` : undefined}
                inputMode="decimal"
                onChange={(e) => {
                  const value = e.currentTarget.value;
                  setDraft((d) => ({ ...d, [f]: value }));
                  changed();
                }}
                error={
                  dhcp || errors[f] === undefined
                    ? undefined
                    : translateServerText(i18n, errors[f] ?? '')
                }
                data-field={f}
              />
            ))}
          </SimpleGrid>
          {canEdit ? (
            <Group>
              <Button type="submit" data-testid="gateway-network-save">
                <Trans>Save network settings</Trans>
              </Button>
              {saved ? (
                <Text size="sm" c="green" role="status">
                  {gateway.pending ? (
                    <Trans>
                      Saved on this device; sent to the server as soon as it can be reached.
                    </Trans>
                  ) : (
                    <Trans>Saved.</Trans>
                  )}
                </Text>
              ) : null}
            </Group>
          ) : null}
        </Stack>
      </form>
    </Paper>
  );
}

/** The agent's key: made (shown once), listed without secret, revoked (gateway::edit). */
function Credentials({ gatewayId }: { readonly gatewayId: string }) {
  const { t, i18n } = useLingui();
  const [list, setList] = useState<GatewayCredentialList | undefined>();
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    const answer = await syncWorker().http.call(
      'GET',
      apiPaths.gatewayCredentials(gatewayId),
      undefined,
      { quiet: true },
    );
    if ('error' in answer) {
      setError(callErrorText(answer.error));
      return;
    }
    const parsed = gatewayCredentialListSchema.safeParse(
      (answer.data as { data?: unknown } | null)?.data,
    );
    if (parsed.success) setList(parsed.data);
  }, [gatewayId]);
  useEffect(() => {
    void load();
  }, [load]);

  const make = async () => {
    setBusy(true);
    setError(null);
    const answer = await syncWorker().http.call(
      'POST',
      apiPaths.gatewayCredentials(gatewayId),
      undefined,
      { quiet: true },
    );
    setBusy(false);
    if ('error' in answer) {
      setError(callErrorText(answer.error));
      return;
    }
    const parsed = gatewayCredentialsMadeSchema.safeParse(
      (answer.data as { data?: unknown } | null)?.data,
    );
    if (parsed.success) setSecret(parsed.data.secret);
    await load();
  };

  const madeAt = i18n.date(new Date(list?.[0]?.created_at ?? 0), {
    dateStyle: 'medium',
    timeStyle: 'short',
  });

  const revoke = async () => {
    if (!window.confirm(t`Revoke the key? The agent that uses it is disconnected at once.`)) return;
    setBusy(true);
    const answer = await syncWorker().http.call(
      'DELETE',
      apiPaths.gatewayCredentials(gatewayId),
      undefined,
      { quiet: true },
    );
    setBusy(false);
    if ('error' in answer) setError(callErrorText(answer.error));
    setSecret(null);
    await load();
  };

  return (
    <Paper withBorder p="md" radius="sm" data-testid="gateway-credentials">
      <Stack gap="sm">
        <Title order={2} size="h4">
          <Trans>Agent key</Trans>
        </Title>
        <Text size="sm" c="dimmed">
          <Trans>
            The gateway agent signs in with this key. Making a new key ends the old one; the key is
            shown once.
          </Trans>
        </Text>
        {secret === null ? null : (
          <Alert color="green" title={t`The new key (shown only now)`} data-testid="gateway-key">
            <Group gap="xs" wrap="nowrap">
              <Code style={{ overflowWrap: 'anywhere' }} data-testid="gateway-key-value">
                {secret}
              </Code>
              <CopyButton value={secret}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="light" onClick={copy}>
                    {copied ? <Trans>Copied</Trans> : <Trans>Copy</Trans>}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </Alert>
        )}
        {list === undefined ? null : list.length === 0 ? (
          <Text size="sm" data-testid="gateway-key-none">
            <Trans>No key yet.</Trans>
          </Text>
        ) : (
          <Text size="sm" data-testid="gateway-key-made">
            <Trans>Key made {madeAt}</Trans>
          </Text>
        )}
        {error === null ? null : (
          <Text size="sm" c="red" role="alert">
            {translateServerText(i18n, error)}
          </Text>
        )}
        <Group>
          <Button onClick={() => void make()} loading={busy} data-testid="gateway-key-make">
            {list !== undefined && list.length > 0 ? (
              <Trans>Make a new key</Trans>
            ) : (
              <Trans>Make key</Trans>
            )}
          </Button>
          {list !== undefined && list.length > 0 ? (
            <Button
              variant="light"
              color="red"
              onClick={() => void revoke()}
              disabled={busy}
              data-testid="gateway-key-revoke"
            >
              <Trans>Revoke</Trans>
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Paper>
  );
}
