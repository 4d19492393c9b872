import './catalogues';
import { useEffect, useMemo, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Menu,
  Paper,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { Link, useParams } from '@tanstack/react-router';
import {
  BOOKLET_KINDS,
  formText,
  type BookletKind,
  type FormField,
  type FormValue,
  type Language,
} from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { EmptyState } from '../../components/empty-state';
import {
  SERVICE_STATE_COLORS,
  SERVICE_STATE_WORDS,
  UPDATE_STATE_COLORS,
  UPDATE_STATE_WORDS,
} from '../states/state-words';
import { Name } from '../../components/name';
import { useCan } from '../../permissions/permissions';
import { useLiveModel, useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { useDueTasks } from './due-tasks';
import { BookletPdfButton } from './booklet-pdf-button';
import { BlobImage } from './blob-image';
import { taskPaths } from './paths';
import { scheduleText } from './schedule-text';
import classes from './tasks.module.css';

/** What the booklet's timeline holds, each kind can be hidden. */
const KINDS = BOOKLET_KINDS;
type Kind = BookletKind;

interface Item {
  readonly kind: Kind;
  readonly id: string;
  readonly at: number;
  readonly node: React.ReactNode;
}

/**
 * /app/devices/{id}/servicebooklet (issue 37 item 3): the machine's history on one timeline,
 * newest first: filled-in forms (each shown with the version it was filled with, its photos and
 * signature), alarms acknowledged with their notes, service requests, and updates of its gateway;
 * filterable by kind, printable. Above it, what is due on the machine and the forms to fill in.
 */
export function ServiceBookletPage() {
  const { id = '' }: { id?: string } = useParams({ strict: false });
  const asset = useLiveModel('asset', id);
  if (asset.name === 'loading') return <Skeleton height={240} />;
  if (asset.name === 'missing')
    return <EmptyState title={<Trans>This asset does not exist (any more).</Trans>} />;
  return <Booklet asset={asset.model} />;
}

function Booklet(props: { readonly asset: LocalModel<'asset'> }) {
  const { t, i18n } = useLingui();
  const can = useCan();
  const assetId = props.asset.id;
  const [shown, setShown] = useState<readonly Kind[]>(KINDS);
  const due = useDueTasks(assetId);
  const forms = useLiveQuery({ type: 'form', limit: 1000 });
  const versions = useLiveQuery({ type: 'form_version', limit: 1000 });
  const entries = useLiveQuery({
    type: 'form_entry',
    parent: { type: 'asset', id: assetId },
    limit: 1000,
  });
  const acks = useLiveQuery({ type: 'alarm_ack', limit: 1000 });
  const alarms = useLiveQuery({ type: 'alarm', limit: 1000 });
  const requests = useLiveQuery({
    type: 'service_request',
    parent: { type: 'asset', id: assetId },
    limit: 1000,
  });
  const parts = useLiveQuery(
    props.asset.attributes.gateway_id === null ? null : { type: 'deployment_gateway', limit: 1000 },
  );
  const rollouts = useLiveQuery({ type: 'deployment', limit: 1000 });
  const releases = useLiveQuery({ type: 'release', limit: 1000 });

  const published = useMemo(
    () =>
      (forms?.items ?? []).filter((f) =>
        versions?.items.some((v) => v.attributes.form_id === f.id),
      ),
    [forms, versions],
  );
  const versionOf = useMemo(
    () => new Map((versions?.items ?? []).map((v) => [v.id, v])),
    [versions],
  );

  const items = useMemo((): Item[] => {
    const list: Item[] = [];
    for (const e of entries?.items ?? []) {
      const version = versionOf.get(e.attributes.form_version_id);
      list.push({
        kind: 'entry',
        id: e.id,
        at: e.attributes.filled_at,
        node: <EntryItem entry={e} version={version} />,
      });
    }
    const alarmName = new Map((alarms?.items ?? []).map((a) => [a.id, a.attributes.name]));
    for (const a of acks?.items ?? []) {
      if (a.attributes.asset_id !== assetId) continue;
      const name = alarmName.get(a.attributes.alarm_id) ?? '–';
      list.push({
        kind: 'ack',
        id: a.id,
        at: a.attributes.at ?? a.attributes.raised_at ?? 0,
        node: (
          <Stack gap={2}>
            <Text fw={500}>
              <Trans>
                Alarm acknowledged: <Name>{name}</Name>
              </Trans>
            </Text>
            {a.attributes.note === '' ? null : <Text size="sm">{a.attributes.note}</Text>}
          </Stack>
        ),
      });
    }
    for (const r of requests?.items ?? []) {
      list.push({
        kind: 'service',
        id: r.id,
        at: r.attributes.reported_at ?? r.attributes.changed_at ?? 0,
        node: (
          <Stack gap={2}>
            <Text fw={500}>
              <Trans>
                Service request: <Name>{r.attributes.title}</Name>
              </Trans>
            </Text>
            <StateBadge
              state={r.attributes.state}
              color={SERVICE_STATE_COLORS[r.attributes.state]}
              text={i18n._(SERVICE_STATE_WORDS[r.attributes.state])}
            />
          </Stack>
        ),
      });
    }
    const gatewayId = props.asset.attributes.gateway_id;
    const rollout = new Map((rollouts?.items ?? []).map((d) => [d.id, d.attributes.release_id]));
    const release = new Map((releases?.items ?? []).map((r) => [r.id, r.attributes]));
    for (const p of parts?.items ?? []) {
      if (p.attributes.gateway_id !== gatewayId) continue;
      const target = release.get(rollout.get(p.attributes.deployment_id) ?? '');
      const version = target === undefined ? '–' : `${target.name} ${target.version}`;
      list.push({
        kind: 'deployment',
        id: p.id,
        at: p.attributes.changed_at ?? 0,
        node: (
          <Stack gap={2}>
            <Text fw={500}>
              <Trans>
                Update of its gateway to <Name>{version}</Name>
              </Trans>
            </Text>
            <StateBadge
              state={p.attributes.state}
              color={UPDATE_STATE_COLORS[p.attributes.state]}
              text={i18n._(UPDATE_STATE_WORDS[p.attributes.state])}
            />
          </Stack>
        ),
      });
    }
    return list.sort((a, b) => b.at - a.at);
  }, [
    entries,
    versionOf,
    acks,
    alarms,
    requests,
    parts,
    rollouts,
    releases,
    assetId,
    props.asset,
    i18n,
  ]);

  const kindLabel: Record<Kind, string> = {
    entry: t`Filled-in forms`,
    ack: t`Acknowledged alarms`,
    service: t`Service requests`,
    deployment: t`Updates`,
  };
  const visible = items.filter((i) => shown.includes(i.kind));
  const loading = entries === undefined || acks === undefined || requests === undefined;

  return (
    <Stack gap="md" data-testid="service-booklet">
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1}>
            <Trans>Service booklet</Trans>
          </Title>
          <Text c="dimmed" data-testid="booklet-asset">
            <Name>{props.asset.attributes.name}</Name>
          </Text>
        </Stack>
        <Group className={classes.noPrint}>
          {can('form_entry::create') && published.length > 0 ? (
            <Menu>
              <Menu.Target>
                <Button data-testid="booklet-fill">
                  <Trans>Fill in a form</Trans>
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {published.map((f) => (
                  <Menu.Item
                    key={f.id}
                    component={Link}
                    to={taskPaths.fill(props.asset.id, f.id)}
                    data-testid="booklet-fill-form"
                  >
                    {f.attributes.name}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          ) : null}
          <Button variant="default" onClick={() => window.print()}>
            <Trans>Print</Trans>
          </Button>
          <BookletPdfButton
            assetId={props.asset.id}
            assetName={props.asset.attributes.name}
            kinds={shown}
          />
        </Group>
      </Group>
      {due !== undefined && due.length > 0 ? (
        <Paper withBorder p="sm" radius="md" data-testid="booklet-due">
          <Stack gap="xs">
            <Title order={2} size="h4">
              <Trans>Due now</Trans>
            </Title>
            {due.map(({ state, task }) => (
              <Group key={state.id} justify="space-between" data-testid="due-task">
                <Stack gap={0}>
                  <Text fw={500}>
                    <Name>{task.attributes.name}</Name>
                  </Text>
                  <Text size="xs" c="dimmed">
                    {scheduleText(i18n, task.attributes.schedule)}
                  </Text>
                </Stack>
                {can('form_entry::create') ? (
                  <Anchor
                    component={Link}
                    to={taskPaths.fill(props.asset.id, task.attributes.form_id, task.id)}
                    className={classes.noPrint}
                  >
                    <Trans>Fill in</Trans>
                  </Anchor>
                ) : null}
              </Group>
            ))}
          </Stack>
        </Paper>
      ) : null}
      <Checkbox.Group
        label={t`Show`}
        value={[...shown]}
        onChange={(v) => setShown(KINDS.filter((k) => v.includes(k)))}
        className={classes.noPrint}
      >
        <Group gap="md" mt={4}>
          {KINDS.map((k) => (
            <Checkbox key={k} value={k} label={kindLabel[k]} />
          ))}
        </Group>
      </Checkbox.Group>
      {loading ? (
        <Skeleton height={120} />
      ) : visible.length === 0 ? (
        <EmptyState title={<Trans>Nothing in the service booklet yet</Trans>}>
          <Trans>
            Filled-in forms, acknowledged alarms, service requests and updates show here.
          </Trans>
        </EmptyState>
      ) : (
        <Stack gap="sm" className={classes.timeline} component="ol" style={{ listStyle: 'none' }}>
          {visible.map((item) => (
            <li key={item.id} data-testid="booklet-item" data-kind={item.kind}>
              <Paper withBorder p="sm" radius="sm">
                <Text size="xs" c="dimmed">
                  {item.at === 0
                    ? t`waiting to be sent`
                    : i18n.date(new Date(item.at), { dateStyle: 'medium', timeStyle: 'short' })}
                </Text>
                {item.node}
              </Paper>
            </li>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** One filled-in form as it was filled: its version's labels, the answers, photos, signature. */
function EntryItem(props: {
  readonly entry: LocalModel<'form_entry'>;
  readonly version: LocalModel<'form_version'> | undefined;
}) {
  const { t, i18n } = useLingui();
  const lang = i18n.locale as Language;
  const { version, entry } = props;
  if (version === undefined)
    return (
      <Text fw={500}>
        <Trans>A filled-in form (its form is not available)</Trans>
      </Text>
    );
  return (
    <Stack gap={4} data-testid="booklet-entry" data-id={entry.id}>
      <Text fw={500}>
        <Name>{version.attributes.name}</Name> · <Trans>version {version.attributes.number}</Trans>
      </Text>
      <dl style={{ margin: 0 }}>
        {version.attributes.fields.map((field) => (
          <Group key={field.id} gap="xs" align="flex-start" wrap="nowrap">
            <Text component="dt" size="sm" c="dimmed" miw={160}>
              {formText(field.label, lang)}
            </Text>
            <Text component="dd" size="sm" m={0} data-answer={field.id}>
              <Answer field={field} value={entry.attributes.values[field.id]} />
            </Text>
          </Group>
        ))}
      </dl>
      {entry.attributes.counter_value === null ? null : (
        <Text size="xs" c="dimmed">
          {t`Counter when done: ${i18n.number(entry.attributes.counter_value)}`}
        </Text>
      )}
    </Stack>
  );
}

function Answer(props: { readonly field: FormField; readonly value: FormValue | undefined }) {
  const { t, i18n } = useLingui();
  const lang = i18n.locale as Language;
  const { field, value } = props;
  // No answer, and no photo or signature, read alike (as in the booklet's PDF).
  if (value === undefined || value === null || value === '') return <>–</>;
  if (Array.isArray(value) && value.length === 0) return <>–</>;
  switch (field.type) {
    case 'checkbox':
      return <>{value === true ? t`Yes` : t`No`}</>;
    case 'number':
    case 'formula':
      return (
        <>
          {typeof value === 'number' ? i18n.number(value) : '–'}
          {field.unit === '' ? '' : ` ${field.unit}`}
        </>
      );
    case 'datetime':
      return (
        <>
          {typeof value === 'number'
            ? i18n.date(new Date(value), { dateStyle: 'medium', timeStyle: 'short' })
            : '–'}
        </>
      );
    case 'select':
    case 'multiselect': {
      const ids = Array.isArray(value) ? value : [String(value)];
      return (
        <>
          {ids
            .map((id) => {
              const o = field.options.find((x) => x.id === id);
              return o === undefined ? id : formText(o.label, lang);
            })
            .join(', ')}
        </>
      );
    }
    case 'photo':
    case 'signature':
      return (
        <Group gap="xs">
          {(Array.isArray(value) ? value : []).map((fileId, i) => (
            <FileThumb
              key={fileId}
              fileId={fileId}
              alt={field.type === 'signature' ? t`Signature` : t`Photo ${i + 1}`}
            />
          ))}
        </Group>
      );
    case 'text':
      return <span style={{ whiteSpace: 'pre-wrap' }}>{String(value)}</span>;
  }
}

/** A photo or signature of an entry, read through the worker's files (offline once seen). */
function FileThumb(props: { readonly fileId: string; readonly alt: string }) {
  const [blob, setBlob] = useState<Blob | null | 'missing'>(null);
  useEffect(() => {
    let live = true;
    void syncWorker()
      .files.read(props.fileId, 'thumbnail')
      .then((answer) => {
        if (live) setBlob('error' in answer ? 'missing' : answer.data);
      });
    return () => {
      live = false;
    };
  }, [props.fileId]);
  if (blob === null) return <Skeleton width={96} height={96} />;
  if (blob === 'missing')
    return (
      <Text size="xs" c="dimmed" data-testid="booklet-file-missing">
        {props.alt}
      </Text>
    );
  return (
    <span data-testid="booklet-file" data-file={props.fileId}>
      <BlobImage blob={blob} alt={props.alt} />
    </span>
  );
}

/** A request's or an update's state, in words, its stored value kept in `data-state`. */
function StateBadge(props: {
  readonly state: string;
  readonly color: string;
  readonly text: string;
}) {
  return (
    <Badge variant="light" w="fit-content" color={props.color} data-state={props.state}>
      {props.text}
    </Badge>
  );
}
