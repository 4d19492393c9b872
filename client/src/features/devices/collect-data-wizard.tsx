import { useMemo, useState } from 'react';
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Anchor,
  Button,
  Group,
  Modal,
  Paper,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Stepper,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { PasswordInput } from '../../components/password-input';
import {
  ADDRESS_BY_PROTOCOL,
  apiPaths,
  INTERVAL_MS,
  isolate,
  MODBUS_AREAS,
  MODBUS_DATATYPES,
  modelNameField,
  opcuaNodesAnswerSchema,
  OPCUA_SECURITY_MODES,
  PROTOCOLS,
  S7_DATATYPES,
  SETTINGS_BY_PROTOCOL,
  SIMULATOR_SHAPES,
  TAGNAME_USED,
  DATASTREAM_TYPES,
  type DatastreamAttributes,
  type Protocol,
} from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { streamTypeLabel, textOf } from './asset-texts';

type DatastreamType = DatastreamAttributes['type'];

/** The stream types in the order the wizard offers them (the usual one first). */
const STREAM_TYPE_CHOICES = [
  'number',
  'state',
  'boolean',
  'text',
] as const satisfies readonly DatastreamType[];

/**
 * The collect-data wizard (spec 001 §2): gateway, protocol, connection, tags, the data streams
 * they feed, done. Everything it makes is a local write (connection, stream groups, streams,
 * datapoints), so it saves offline too: the writes wait in the outbox, in order. Only browsing an
 * OPC UA device's variables needs the connection, through the gateway.
 */
export const FILL_ALL = 'Please fill out all parameters';
export const SELECT_STREAM = 'Please select a stream';
export const TYPE_MISMATCH = 'The input type must match the selected type';
export const INTERVAL_RANGE = 'Between 0.1 seconds and one day';

/** Protocols by their product names; the simulator is ours, so its name is translated. */
function protocolLabel(i18n: I18n, protocol: Protocol): string {
  switch (protocol) {
    case 'modbus-tcp':
      return 'Modbus TCP';
    case 'opcua':
      return 'OPC UA';
    case 's7':
      return 'Siemens S7';
    case 'simulator':
      return i18n._(msg`Simulator`);
  }
}

type Kind = 'number' | 'boolean' | 'text' | 'any';

interface TagDraft {
  readonly key: number;
  tag: string;
  /** The address's fields as typed (numbers parsed when checked). */
  address: Record<string, string>;
  stream:
    | {
        mode: 'new';
        group: string;
        newGroup: string;
        name: string;
        unit: string;
        type: DatastreamType;
      }
    | { mode: 'existing'; id: string };
}

interface ConnectionDraft {
  mode: 'new' | 'existing';
  id: string;
  name: string;
  settings: Record<string, string>;
  intervalS: string;
}

type Errors = Record<string, string>;

const DEFAULT_SETTINGS: Record<Protocol, Record<string, string>> = {
  'modbus-tcp': { host: '', port: '502', unit_id: '1' },
  opcua: { endpoint: 'opc.tcp://', security_mode: 'none', username: '', password: '' },
  s7: { host: '', port: '102', rack: '0', slot: '1' },
  simulator: {},
};

const DEFAULT_ADDRESS: Record<Protocol, Record<string, string>> = {
  'modbus-tcp': { area: 'holding', index: '0', datatype: 'uint16', word_order: 'big' },
  opcua: { node_id: '' },
  s7: { address: '', datatype: 'real' },
  simulator: { shape: 'sine', min: '0', max: '100' },
};

const NUMERIC_FIELDS = new Set(['port', 'unit_id', 'rack', 'slot', 'index', 'min', 'max']);

/** Typed fields to the shapes the shared schemas check (blank optional texts left out). */
function typed(fields: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (v.trim() === '' && (k === 'username' || k === 'password')) continue;
    out[k] = NUMERIC_FIELDS.has(k) && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v;
  }
  return out;
}

/** What kind of value a tag gives: its stream's type must take it. */
function kindOf(protocol: Protocol, address: Record<string, string>): Kind {
  switch (protocol) {
    case 'modbus-tcp':
      return address.area === 'coil' || address.area === 'discrete' ? 'boolean' : 'number';
    case 's7':
      return address.datatype === 'bool' ? 'boolean' : 'number';
    case 'simulator':
      return address.shape === 'boolean' ? 'boolean' : address.shape === 'text' ? 'text' : 'number';
    case 'opcua':
      return 'any';
  }
}

function fits(kind: Kind, streamType: DatastreamType): boolean {
  if (kind === 'any') return true;
  if (kind === 'number') return streamType === 'number' || streamType === 'state';
  return streamType === kind;
}

const firstError = (errors: Errors) => Object.values(errors)[0];

export function CollectDataWizard({
  asset,
  onClose,
}: {
  readonly asset: LocalModel<'asset'>;
  readonly onClose: () => void;
}) {
  const { t, i18n } = useLingui();
  const [step, setStep] = useState(0);
  const [gatewayId, setGatewayId] = useState<string | null>(asset.attributes.gateway_id);
  const [protocol, setProtocol] = useState<Protocol | null>(null);
  const [connection, setConnection] = useState<ConnectionDraft>({
    mode: 'new',
    id: '',
    name: '',
    settings: {},
    intervalS: String(INTERVAL_MS.default / 1000),
  });
  const [nextKey, setNextKey] = useState(1);
  const [tags, setTags] = useState<TagDraft[]>([]);
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);

  const gateways = useLiveQuery({ type: 'gateway', limit: 1000 });
  const connections = useLiveQuery(
    gatewayId === null
      ? null
      : { type: 'connection', parent: { type: 'gateway', id: gatewayId }, limit: 1000 },
  );
  const datapoints = useLiveQuery({ type: 'datapoint', limit: 1000 });
  const groups = useLiveQuery({
    type: 'datastreamgroup',
    parent: { type: 'asset', id: asset.id },
    limit: 1000,
  });
  const streams = useLiveQuery({ type: 'datastream', limit: 1000 });
  const assetStreams = useMemo(
    () => (streams?.items ?? []).filter((s) => s.attributes.asset_id === asset.id),
    [streams, asset.id],
  );
  const tr = (text: string | undefined) =>
    text === undefined ? undefined : translateServerText(i18n, text);

  const sameProtocol = (connections?.items ?? []).filter((c) => c.attributes.protocol === protocol);
  /** Tag names the gateway has already, lower case. */
  const takenTags = useMemo(() => {
    const mine = new Set((connections?.items ?? []).map((c) => c.id));
    return new Set(
      (datapoints?.items ?? [])
        .filter((d) => mine.has(d.attributes.connection_id))
        .map((d) => textOf(d.attributes, 'tag').trim().toLowerCase())
        .filter((x) => x !== ''),
    );
  }, [connections, datapoints]);

  const chooseProtocol = (p: Protocol) => {
    setProtocol(p);
    setConnection((c) => ({ ...c, mode: 'new', id: '', settings: { ...DEFAULT_SETTINGS[p] } }));
    setTags([]);
  };

  const addTag = () => {
    if (protocol === null) return;
    setTags((list) => [
      ...list,
      {
        key: nextKey,
        tag: '',
        address: { ...DEFAULT_ADDRESS[protocol] },
        stream: {
          mode: 'new',
          group: groups?.items[0]?.id ?? '',
          newGroup: '',
          name: '',
          unit: '',
          type: 'number',
        },
      },
    ]);
    setNextKey((k) => k + 1);
  };

  const checkStep = (at: number): Errors => {
    const e: Errors = {};
    if (at === 0 && gatewayId === null) e.gateway = FILL_ALL;
    if (at === 1 && protocol === null) e.protocol = FILL_ALL;
    if (at === 2 && protocol !== null) {
      if (connection.mode === 'existing') {
        if (connection.id === '') e.connection = FILL_ALL;
      } else {
        const name = modelNameField.safeParse(connection.name);
        if (!name.success) e.name = name.error.issues[0]?.message ?? FILL_ALL;
        const blank = Object.entries(connection.settings).some(
          ([k, v]) => v.trim() === '' && k !== 'username' && k !== 'password',
        );
        if (blank) e.form = FILL_ALL;
        const parsed = SETTINGS_BY_PROTOCOL[protocol].safeParse(typed(connection.settings));
        if (!parsed.success) {
          for (const issue of parsed.error.issues)
            e[`settings.${issue.path.join('.')}`] ??= issue.message;
        }
        const interval = Number(connection.intervalS.replace(',', '.')) * 1000;
        if (!Number.isFinite(interval)) e.interval = 'Must be a number';
        else if (interval < INTERVAL_MS.min || interval > INTERVAL_MS.max)
          e.interval = INTERVAL_RANGE;
      }
    }
    if (at === 3 && protocol !== null) {
      if (tags.length === 0) e.form = FILL_ALL;
      const seen = new Set<string>();
      for (const tag of tags) {
        const name = tag.tag.trim().toLowerCase();
        if (name === '') e[`tag.${tag.key}`] = FILL_ALL;
        else if (takenTags.has(name) || seen.has(name)) e[`tag.${tag.key}`] = TAGNAME_USED;
        seen.add(name);
        if (Object.values(tag.address).some((v) => v.trim() === '')) e.form = FILL_ALL;
        const parsed = ADDRESS_BY_PROTOCOL[protocol].safeParse(typed(tag.address));
        if (!parsed.success) {
          for (const issue of parsed.error.issues)
            e[`address.${tag.key}.${issue.path.join('.')}`] ??= issue.message;
        }
      }
    }
    if (at === 4 && protocol !== null) {
      for (const tag of tags) {
        const kind = kindOf(protocol, tag.address);
        if (tag.stream.mode === 'existing') {
          const chosenId = tag.stream.id;
          const chosen = assetStreams.find((s) => s.id === chosenId);
          if (chosen === undefined) e[`stream.${tag.key}`] = SELECT_STREAM;
          else if (!fits(kind, chosen.attributes.type)) e[`stream.${tag.key}`] = TYPE_MISMATCH;
        } else {
          const name = modelNameField.safeParse(tag.stream.name);
          if (!name.success) e[`stream.${tag.key}`] = name.error.issues[0]?.message ?? FILL_ALL;
          else if (tag.stream.group === '' && tag.stream.newGroup.trim() === '')
            e[`group.${tag.key}`] = FILL_ALL;
          else if (!fits(kind, tag.stream.type)) e[`stream.${tag.key}`] = TYPE_MISMATCH;
        }
      }
    }
    return e;
  };

  const next = () => {
    const e = checkStep(step);
    setErrors(e);
    if (Object.keys(e).length > 0) return;
    if (step === 2 && tags.length === 0) addTag();
    setStep((s) => s + 1);
  };

  const save = async () => {
    if (protocol === null || gatewayId === null) return;
    setSaving(true);
    const worker = syncWorker();
    const fail = (message: string) => {
      setErrors({ form: message });
      setSaving(false);
    };
    let connectionId = connection.id;
    if (connection.mode === 'new') {
      const made = await worker.writes.create('connection', {
        gateway_id: gatewayId,
        name: connection.name,
        protocol,
        settings: typed(connection.settings),
        interval_ms: Math.round(Number(connection.intervalS.replace(',', '.')) * 1000),
        enabled: true,
      });
      if ('error' in made) return fail(made.error.message);
      connectionId = made.data.id;
      setConnection((c) => ({ ...c, mode: 'existing', id: made.data.id }));
    }
    const newGroups = new Map<string, string>();
    for (const tag of tags) {
      let streamId: string;
      if (tag.stream.mode === 'existing') {
        streamId = tag.stream.id;
      } else {
        let groupId = tag.stream.group;
        const groupName = tag.stream.newGroup.trim();
        if (groupId === '' || groupName !== '') {
          const known = newGroups.get(groupName);
          if (known === undefined) {
            const made = await worker.writes.create('datastreamgroup', {
              asset_id: asset.id,
              name: groupName,
            });
            if ('error' in made) return fail(made.error.message);
            newGroups.set(groupName, made.data.id);
            groupId = made.data.id;
          } else {
            groupId = known;
          }
        }
        const made = await worker.writes.create('datastream', {
          asset_id: asset.id,
          group_id: groupId,
          name: tag.stream.name,
          unit: tag.stream.unit,
          type: tag.stream.type,
        });
        if ('error' in made) return fail(made.error.message);
        streamId = made.data.id;
      }
      const point = await worker.writes.create('datapoint', {
        connection_id: connectionId,
        datastream_id: streamId,
        tag: tag.tag.trim(),
        address: typed(tag.address),
        deadband: 0,
      });
      if ('error' in point) return fail(point.error.fields?.tag?.[0] ?? point.error.message);
    }
    setSaving(false);
    setSaved(true);
    setStep(5);
  };

  const labels = [t`Gateway`, t`Protocol`, t`Connection`, t`Tags`, t`Data streams`, t`Done`];

  return (
    <Modal opened onClose={onClose} title={t`Collect data`} size="xl" data-testid="collect-wizard">
      <Stepper
        active={step}
        size="xs"
        allowNextStepsSelect={false}
        onStepClick={(s) => !saved && s < step && setStep(s)}
      >
        {labels.map((label) => (
          <Stepper.Step key={label} label={label} />
        ))}
      </Stepper>
      <Stack gap="md" mt="md">
        {step === 0 ? (
          <Select
            label={t`Gateway`}
            placeholder={t`Choose the gateway`}
            value={gatewayId}
            onChange={setGatewayId}
            data={(gateways?.items ?? []).map((g) => ({
              value: g.id,
              label: textOf(g.attributes, 'name'),
            }))}
            error={tr(errors.gateway)}
            searchable
          />
        ) : null}
        {step === 1 ? (
          <Radio.Group
            label={t`Protocol`}
            value={protocol ?? ''}
            onChange={(v) => chooseProtocol(v as Protocol)}
            error={tr(errors.protocol)}
          >
            <Group mt="xs">
              {PROTOCOLS.map((p) => (
                <Radio key={p} value={p} label={protocolLabel(i18n, p)} />
              ))}
            </Group>
          </Radio.Group>
        ) : null}
        {step === 2 && protocol !== null ? (
          <ConnectionStep
            protocol={protocol}
            draft={connection}
            existing={sameProtocol}
            errors={errors}
            onChange={(patch) => setConnection((c) => ({ ...c, ...patch }))}
          />
        ) : null}
        {step === 3 && protocol !== null ? (
          <TagsStep
            protocol={protocol}
            tags={tags}
            errors={errors}
            gatewayId={gatewayId ?? ''}
            connection={connection}
            connections={connections?.items ?? []}
            onChange={setTags}
            onAdd={addTag}
          />
        ) : null}
        {step === 4 && protocol !== null ? (
          <StreamsStep
            protocol={protocol}
            tags={tags}
            errors={errors}
            groups={groups?.items ?? []}
            streams={assetStreams}
            onChange={setTags}
          />
        ) : null}
        {step === 5 ? (
          <Alert color="green" data-testid="wizard-done" title={t`Data collection is set up`}>
            <Trans>
              The gateway gets its new configuration within seconds once this device is online; the
              values then show on the asset.
            </Trans>
          </Alert>
        ) : null}
        {errors.form !== undefined ? (
          <Alert color="red" role="alert" data-testid="wizard-error">
            {tr(errors.form)}
          </Alert>
        ) : null}
        <Group justify="space-between">
          <Button
            variant="default"
            onClick={step === 0 || step === 5 ? onClose : () => setStep((s) => s - 1)}
          >
            {step === 0 ? (
              <Trans>Cancel</Trans>
            ) : step === 5 ? (
              <Trans>Close</Trans>
            ) : (
              <Trans>Back</Trans>
            )}
          </Button>
          {step < 4 ? (
            <Button onClick={next}>
              <Trans>Next</Trans>
            </Button>
          ) : step === 4 ? (
            <Button
              loading={saving}
              onClick={() => {
                const e = checkStep(4);
                setErrors(e);
                if (Object.keys(e).length === 0) void save();
              }}
            >
              <Trans>Save</Trans>
            </Button>
          ) : null}
        </Group>
        {Object.keys(errors).length > 0 && errors.form === undefined ? (
          <Text size="sm" c="red" role="alert" data-testid="wizard-step-error">
            {tr(firstError(errors))}
          </Text>
        ) : null}
      </Stack>
    </Modal>
  );
}

function ConnectionStep({
  protocol,
  draft,
  existing,
  errors,
  onChange,
}: {
  readonly protocol: Protocol;
  readonly draft: ConnectionDraft;
  readonly existing: readonly LocalModel<'connection'>[];
  readonly errors: Errors;
  readonly onChange: (patch: Partial<ConnectionDraft>) => void;
}) {
  const { t, i18n } = useLingui();
  const tr = (text: string | undefined) =>
    text === undefined ? undefined : translateServerText(i18n, text);
  const setting = (key: string, label: string, props: Record<string, unknown> = {}) => (
    <TextInput
      key={key}
      label={label}
      value={draft.settings[key] ?? ''}
      onChange={(e) => onChange({ settings: { ...draft.settings, [key]: e.currentTarget.value } })}
      error={tr(errors[`settings.${key}`])}
      {...props}
    />
  );
  return (
    <Stack gap="sm">
      {existing.length > 0 ? (
        <Radio.Group
          label={t`Connection`}
          value={draft.mode}
          onChange={(v) => onChange({ mode: v === 'existing' ? 'existing' : 'new' })}
        >
          <Group mt="xs">
            <Radio value="new" label={t`A new connection`} />
            <Radio value="existing" label={t`An existing connection`} />
          </Group>
        </Radio.Group>
      ) : null}
      {draft.mode === 'existing' ? (
        <Select
          label={t`Existing connection`}
          value={draft.id === '' ? null : draft.id}
          onChange={(v) => onChange({ id: v ?? '' })}
          data={existing.map((c) => ({ value: c.id, label: textOf(c.attributes, 'name') }))}
          error={tr(errors.connection)}
        />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t`Connection name`}
            required
            value={draft.name}
            onChange={(e) => onChange({ name: e.currentTarget.value })}
            error={tr(errors.name)}
          />
          <TextInput
            label={t`Read every (seconds)`}
            inputMode="decimal"
            value={draft.intervalS}
            onChange={(e) => onChange({ intervalS: e.currentTarget.value })}
            error={tr(errors.interval)}
          />
          {protocol === 'modbus-tcp' || protocol === 's7'
            ? setting('host', t`Host`, { required: true })
            : null}
          {protocol === 'modbus-tcp' || protocol === 's7'
            ? setting('port', t`Port`, { inputMode: 'numeric' })
            : null}
          {protocol === 'modbus-tcp'
            ? setting('unit_id', t`Unit id`, { inputMode: 'numeric' })
            : null}
          {protocol === 's7' ? setting('rack', t`Rack`, { inputMode: 'numeric' }) : null}
          {protocol === 's7' ? setting('slot', t`Slot`, { inputMode: 'numeric' }) : null}
          {protocol === 'opcua' ? setting('endpoint', t`Endpoint`, { required: true }) : null}
          {protocol === 'opcua' ? (
            <Select
              label={t`Security mode`}
              value={draft.settings.security_mode ?? 'none'}
              allowDeselect={false}
              onChange={(v) =>
                onChange({ settings: { ...draft.settings, security_mode: v ?? 'none' } })
              }
              data={OPCUA_SECURITY_MODES.map((m) => ({
                value: m,
                label: m === 'none' ? t`None` : m === 'sign' ? t`Sign` : t`Sign and encrypt`,
              }))}
            />
          ) : null}
          {protocol === 'opcua' ? setting('username', t`User name (optional)`) : null}
          {protocol === 'opcua' ? (
            <PasswordInput
              label={t`Password (optional)`}
              value={draft.settings.password ?? ''}
              onChange={(e) =>
                onChange({ settings: { ...draft.settings, password: e.currentTarget.value } })
              }
            />
          ) : null}
          {protocol === 'simulator' ? (
            <Text size="sm" c="dimmed">
              <Trans>The simulator needs no settings: it makes a value every interval.</Trans>
            </Text>
          ) : null}
        </SimpleGrid>
      )}
    </Stack>
  );
}

function TagsStep({
  protocol,
  tags,
  errors,
  gatewayId,
  connection,
  connections,
  onChange,
  onAdd,
}: {
  readonly protocol: Protocol;
  readonly tags: readonly TagDraft[];
  readonly errors: Errors;
  readonly gatewayId: string;
  readonly connection: ConnectionDraft;
  readonly connections: readonly LocalModel<'connection'>[];
  readonly onChange: (tags: TagDraft[]) => void;
  readonly onAdd: () => void;
}) {
  const { t, i18n } = useLingui();
  const tr = (text: string | undefined) =>
    text === undefined ? undefined : translateServerText(i18n, text);
  const change = (key: number, patch: (tag: TagDraft) => TagDraft) =>
    onChange(tags.map((tag) => (tag.key === key ? patch(tag) : tag)));
  const address = (tag: TagDraft, field: string, label: string, data?: readonly string[]) =>
    data === undefined ? (
      <TextInput
        key={field}
        label={label}
        value={tag.address[field] ?? ''}
        onChange={(e) => {
          const value = e.currentTarget.value;
          change(tag.key, (x) => ({ ...x, address: { ...x.address, [field]: value } }));
        }}
        error={tr(errors[`address.${tag.key}.${field}`])}
      />
    ) : (
      <Select
        key={field}
        label={label}
        value={tag.address[field] ?? null}
        allowDeselect={false}
        data={data.map((d) => ({ value: d, label: d }))}
        onChange={(v) =>
          change(tag.key, (x) => ({ ...x, address: { ...x.address, [field]: v ?? '' } }))
        }
      />
    );
  const savedConnection =
    connection.mode === 'existing'
      ? connections.find((c) => c.id === connection.id && !c.pending)
      : undefined;
  return (
    <Stack gap="sm">
      {tags.map((tag, i) => {
        const n = i + 1;
        return (
          <Paper key={tag.key} withBorder p="sm" data-testid="wizard-tag">
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <TextInput
                label={t`Tag name ${n}`}
                required
                value={tag.tag}
                onChange={(e) => {
                  const value = e.currentTarget.value;
                  change(tag.key, (x) => ({ ...x, tag: value }));
                }}
                error={tr(errors[`tag.${tag.key}`])}
              />
              {protocol === 'modbus-tcp' ? (
                <>
                  {address(tag, 'area', t`Area`, MODBUS_AREAS)}
                  {address(tag, 'index', t`Register`)}
                  {address(tag, 'datatype', t`Data type`, MODBUS_DATATYPES)}
                </>
              ) : null}
              {protocol === 's7' ? (
                <>
                  {address(tag, 'address', t`Address`)}
                  {address(tag, 'datatype', t`Data type`, S7_DATATYPES)}
                </>
              ) : null}
              {protocol === 'opcua' ? address(tag, 'node_id', t`Node id`) : null}
              {protocol === 'simulator' ? (
                <>
                  {address(tag, 'shape', t`Curve`, SIMULATOR_SHAPES)}
                  {address(tag, 'min', t`Minimum`)}
                  {address(tag, 'max', t`Maximum`)}
                </>
              ) : null}
            </SimpleGrid>
            {protocol === 'opcua' ? (
              <OpcuaBrowse
                gatewayId={gatewayId}
                connectionId={savedConnection?.id}
                onPick={(nodeId) =>
                  change(tag.key, (x) => ({ ...x, address: { ...x.address, node_id: nodeId } }))
                }
              />
            ) : null}
            <Group justify="flex-end" mt="xs">
              <Anchor
                component="button"
                type="button"
                size="sm"
                c="red"
                onClick={() => onChange(tags.filter((x) => x.key !== tag.key))}
              >
                <Trans>Remove tag {n}</Trans>
              </Anchor>
            </Group>
          </Paper>
        );
      })}
      <Group>
        <Button variant="light" size="xs" onClick={onAdd}>
          <Trans>Add a tag</Trans>
        </Button>
      </Group>
    </Stack>
  );
}

/** Searches the OPC UA device's variables through the gateway (up to a minute). */
function OpcuaBrowse({
  gatewayId,
  connectionId,
  onPick,
}: {
  readonly gatewayId: string;
  readonly connectionId: string | undefined;
  readonly onPick: (nodeId: string) => void;
}) {
  const { t, i18n } = useLingui();
  const [query, setQuery] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [nodes, setNodes] = useState<
    { node_id: string; display_name: string; data_type: string | null }[]
  >([]);
  if (connectionId === undefined) {
    return (
      <Text size="sm" c="dimmed" mt="xs">
        <Trans>
          Browsing the device needs a connection saved on the server and the gateway online: pick an
          existing connection to browse, or type the node id.
        </Trans>
      </Text>
    );
  }
  const search = async () => {
    setBusy(true);
    setError(null);
    const answer = await syncWorker().http.call(
      'POST',
      apiPaths.opcuaSearch(gatewayId),
      { connection_id: connectionId, query, max_results: 50 },
      { quiet: true },
    );
    setBusy(false);
    if ('error' in answer) {
      setError(
        translateServerText(i18n, answer.error.fields?.query?.[0] ?? callErrorText(answer.error)),
      );
      return;
    }
    const parsed = opcuaNodesAnswerSchema.safeParse(
      (answer.data as { data?: unknown } | null)?.data,
    );
    setNodes(parsed.success ? parsed.data.nodes : []);
  };
  return (
    <Stack gap={4} mt="xs">
      <Group gap="xs" align="flex-end">
        <TextInput
          label={t`Search the device's variables`}
          value={query}
          onChange={(e) => setQuery(e.currentTarget.value)}
        />
        <Button variant="default" loading={busy} onClick={() => void search()}>
          <Trans>Search</Trans>
        </Button>
      </Group>
      {error === null ? null : (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      )}
      {nodes.length > 0 ? (
        <Table>
          <Table.Tbody>
            {nodes.map((node) => (
              <Table.Tr key={node.node_id}>
                <Table.Td>{node.display_name}</Table.Td>
                <Table.Td>{node.data_type ?? ''}</Table.Td>
                <Table.Td>
                  <Anchor
                    component="button"
                    type="button"
                    size="sm"
                    onClick={() => onPick(node.node_id)}
                  >
                    <Trans>Use</Trans>
                  </Anchor>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
    </Stack>
  );
}

function StreamsStep({
  protocol,
  tags,
  errors,
  groups,
  streams,
  onChange,
}: {
  readonly protocol: Protocol;
  readonly tags: readonly TagDraft[];
  readonly errors: Errors;
  readonly groups: readonly LocalModel<'datastreamgroup'>[];
  readonly streams: readonly LocalModel<'datastream'>[];
  readonly onChange: (tags: TagDraft[]) => void;
}) {
  const { t, i18n } = useLingui();
  const tr = (text: string | undefined) =>
    text === undefined ? undefined : translateServerText(i18n, text);
  const set = (key: number, stream: TagDraft['stream']) =>
    onChange(tags.map((tag) => (tag.key === key ? { ...tag, stream } : tag)));
  return (
    <Stack gap="sm">
      {tags.map((tag) => {
        // The tag's name is the user's text: isolated inside the sentence.
        const name = isolate(tag.tag);
        const s = tag.stream;
        return (
          <Paper key={tag.key} withBorder p="sm" data-testid="wizard-stream">
            <Text fw={600} mb="xs">
              <Trans>Tag {name} feeds</Trans>
            </Text>
            <Radio.Group
              value={s.mode}
              onChange={(v) =>
                set(
                  tag.key,
                  v === 'existing'
                    ? { mode: 'existing', id: '' }
                    : {
                        mode: 'new',
                        group: groups[0]?.id ?? '',
                        newGroup: '',
                        name: '',
                        unit: '',
                        type: kindOf(protocol, tag.address) === 'boolean' ? 'boolean' : 'number',
                      },
                )
              }
            >
              <Group>
                <Radio value="new" label={t`A new data stream`} />
                <Radio value="existing" label={t`An existing data stream`} />
              </Group>
            </Radio.Group>
            {s.mode === 'existing' ? (
              <Select
                mt="xs"
                label={t`Data stream`}
                placeholder={t`Choose the data stream`}
                value={s.id === '' ? null : s.id}
                onChange={(v) => set(tag.key, { mode: 'existing', id: v ?? '' })}
                data={streams.map((x) => ({ value: x.id, label: textOf(x.attributes, 'name') }))}
                error={tr(errors[`stream.${tag.key}`])}
              />
            ) : (
              <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs">
                <TextInput
                  label={t`Data stream name`}
                  required
                  value={s.name}
                  onChange={(e) => set(tag.key, { ...s, name: e.currentTarget.value })}
                  error={tr(errors[`stream.${tag.key}`])}
                />
                <TextInput
                  label={t`Unit`}
                  value={s.unit}
                  onChange={(e) => set(tag.key, { ...s, unit: e.currentTarget.value })}
                />
                <Select
                  label={t`Type`}
                  value={s.type}
                  allowDeselect={false}
                  onChange={(v) =>
                    set(tag.key, {
                      ...s,
                      type: DATASTREAM_TYPES.find((x) => x === v) ?? 'number',
                    })
                  }
                  data={STREAM_TYPE_CHOICES.map((x) => ({
                    value: x,
                    label: streamTypeLabel(i18n, x),
                  }))}
                />
                <Select
                  label={t`Group`}
                  value={s.group === '' ? null : s.group}
                  onChange={(v) => set(tag.key, { ...s, group: v ?? '' })}
                  data={groups.map((g) => ({ value: g.id, label: textOf(g.attributes, 'name') }))}
                  placeholder={t`Or name a new group`}
                  clearable
                  error={tr(errors[`group.${tag.key}`])}
                />
                <TextInput
                  label={t`New group`}
                  value={s.newGroup}
                  onChange={(e) => set(tag.key, { ...s, newGroup: e.currentTarget.value })}
                />
              </SimpleGrid>
            )}
          </Paper>
        );
      })}
    </Stack>
  );
}
