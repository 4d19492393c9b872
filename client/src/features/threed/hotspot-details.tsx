import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Group,
  Modal,
  NumberInput,
  Paper,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { Link } from '@tanstack/react-router';
import {
  HOTSPOT_ICONS,
  hotspotAttributesSchema,
  isolate,
  type HotspotIcon,
  type HotspotMetadata,
  type SceneCamera,
} from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { ConfirmDelete } from '../../components/confirm-delete';
import { Name } from '../../components/name';
import { usePageState } from '../../components/page-state';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { useLiveModel, useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { dashboardPaths } from '../dashboards/paths';
import { downloadFile } from '../devices/asset-files';
import { devicePaths } from '../devices/paths';
import { QrCode } from '../qr/qr-code';
import qr from '../qr/qr.module.css';
import classes from './threed.module.css';
import { HotspotGlyph } from './hotspot-icons';
import { StreamValue } from './hotspot-parts';
import { threedPaths } from './paths';

/*
 * One hotspot's panel (issue 32 item 4): its data (live streams, files, places, links, text),
 * its view to jump to, and its QR code with the description printed above it. In edit mode the
 * same panel changes them: name, icon (from the icon font), the view, the entries, the QR
 * description, and deletes it.
 */

export function HotspotDetails(props: {
  readonly hotspot: LocalModel<'hotspot'>;
  readonly editing: boolean;
  /** The viewer's view now, for "Use the current view". */
  readonly useView: () => SceneCamera | null;
  readonly onGoTo: () => void;
  readonly onDeleted: () => void;
}) {
  const { hotspot } = props;
  const { name, icon, metadata } = hotspot.attributes;
  return (
    <Paper withBorder p="sm" data-testid="hotspot-details" data-id={hotspot.id}>
      <Stack gap="sm">
        <Group gap="xs" wrap="nowrap">
          <HotspotGlyph icon={icon} />
          <Title order={2} size="h4" style={{ overflowWrap: 'anywhere' }}>
            <Name>{name}</Name>
          </Title>
        </Group>
        <Group gap="xs">
          <Button size="xs" variant="light" onClick={props.onGoTo} data-testid="hotspot-go">
            <Trans>Go to its view</Trans>
          </Button>
          <HotspotQr hotspot={hotspot} />
        </Group>
        {props.editing ? (
          <HotspotForm hotspot={hotspot} useView={props.useView} onDeleted={props.onDeleted} />
        ) : metadata.length === 0 ? (
          <Text size="sm" c="dimmed">
            <Trans>Nothing attached to this hotspot yet.</Trans>
          </Text>
        ) : (
          <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {metadata.map((entry, index) => (
              <li key={index} data-testid="hotspot-entry" data-kind={entry.kind}>
                <EntryView entry={entry} assetId={hotspot.attributes.asset_id} />
              </li>
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

/** One entry as a reader sees it. */
function EntryView(props: { readonly entry: HotspotMetadata; readonly assetId: string }) {
  const { i18n } = useLingui();
  const { entry } = props;
  switch (entry.kind) {
    case 'stream':
      return (
        <Group gap={4}>
          <StreamValue id={entry.datastream_id} withName />
        </Group>
      );
    case 'file':
      return <FileEntry id={entry.file_id} />;
    case 'text':
      return (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {entry.text}
        </Text>
      );
    case 'position': {
      const where = `${i18n.number(entry.latitude, { maximumFractionDigits: 6 })}, ${i18n.number(entry.longitude, { maximumFractionDigits: 6 })}`;
      return (
        <Text size="sm">
          {entry.label === '' ? null : (
            <>
              <Name>{entry.label}</Name>
              {': '}
            </>
          )}
          <span dir="ltr">{where}</span>
        </Text>
      );
    }
    case 'link':
      return <LinkEntry target={entry.target} id={entry.id} />;
  }
}

function FileEntry(props: { readonly id: string }) {
  const { i18n } = useLingui();
  const state = useLiveModel('file', props.id);
  const [error, setError] = useState<string | null>(null);
  if (state.name !== 'found')
    return state.name === 'missing' ? (
      <Text size="sm" c="dimmed">
        <Trans>The file is no longer here.</Trans>
      </Text>
    ) : null;
  const name = state.model.attributes.name;
  return (
    <>
      <Anchor
        component="button"
        type="button"
        size="sm"
        onClick={() =>
          void downloadFile(props.id, name).then((failed) =>
            setError(failed === null ? null : translateServerText(i18n, callErrorText(failed))),
          )
        }
      >
        <Name>{name}</Name>
      </Anchor>
      {error === null ? null : (
        <Text size="xs" c="red" role="alert">
          {error}
        </Text>
      )}
    </>
  );
}

function LinkEntry(props: { readonly target: 'asset' | 'dashboard'; readonly id: string }) {
  const state = useLiveModel(props.target, props.id);
  if (state.name !== 'found')
    return state.name === 'missing' ? (
      <Text size="sm" c="dimmed">
        <Trans>The linked item is no longer here.</Trans>
      </Text>
    ) : null;
  const to =
    state.model.type === 'dashboard'
      ? dashboardPaths.of(state.model.id, state.model.attributes)
      : devicePaths.details(state.model.id);
  return (
    <Anchor component={Link} to={to} size="sm">
      <Name>{String(state.model.attributes.name)}</Name>
    </Anchor>
  );
}

/** The hotspot's QR code (it opens the scene at the hotspot), its description above it, printable. */
function HotspotQr(props: { readonly hotspot: LocalModel<'hotspot'> }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const { hotspot } = props;
  const {
    name,
    qr_description: description,
    asset_id: assetId,
    scene_id: sceneId,
  } = hotspot.attributes;
  const text = `${location.origin}${threedPaths.scene(assetId, sceneId)}?hotspot=${encodeURIComponent(hotspot.id)}`;
  return (
    <>
      <Button size="xs" variant="default" onClick={() => setOpen(true)} data-testid="hotspot-qr">
        <Trans>QR code</Trans>
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t`QR code of ${isolate(name)}`}>
        <Stack gap="sm">
          <figure
            className={`${qr.label} ${classes.printable}`}
            style={{ margin: 0 }}
            data-testid="hotspot-qr-label"
          >
            {description === '' ? null : (
              <figcaption className={qr.labelName} data-testid="hotspot-qr-description">
                {description}
              </figcaption>
            )}
            <QrCode text={text} label={t`QR code of ${isolate(name)}`} className={qr.labelCode} />
          </figure>
          <Group justify="flex-end">
            <Button onClick={() => window.print()} data-testid="hotspot-qr-print">
              <Trans>Print</Trans>
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

const KINDS = ['stream', 'file', 'link', 'text', 'position'] as const;
type Kind = (typeof KINDS)[number];

/** The edit mode's form: name, icon, view, entries, QR description; Save and Delete. */
function HotspotForm(props: {
  readonly hotspot: LocalModel<'hotspot'>;
  readonly useView: () => SceneCamera | null;
  readonly onDeleted: () => void;
}) {
  const { t, i18n } = useLingui();
  const { hotspot } = props;
  const a = hotspot.attributes;
  const [name, setName] = useState(a.name);
  const [icon, setIcon] = useState<HotspotIcon>(a.icon);
  const [camera, setCamera] = useState(a.camera);
  const [entries, setEntries] = useState<HotspotMetadata[]>([...a.metadata]);
  const [description, setDescription] = useState(a.qr_description);
  const page = usePageState(['name', 'metadata', 'qr_description']);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const iconLabels: Record<HotspotIcon, string> = {
    pin: t`Pin`,
    info: t`Information`,
    warning: t`Warning`,
    gauge: t`Gauge`,
    pump: t`Pump`,
    motor: t`Motor`,
    valve: t`Valve`,
    document: t`Document`,
    wrench: t`Wrench`,
    bolt: t`Power`,
  };

  const save = async () => {
    const checked = page.check(
      hotspotAttributesSchema
        .pick({ name: true, icon: true, camera: true, metadata: true, qr_description: true })
        .safeParse({ name, icon, camera, metadata: entries, qr_description: description }),
    );
    if (checked === null) return;
    page.took(await syncWorker().writes.update('hotspot', hotspot.id, checked), 'write');
  };
  const remove = async () => {
    const answer = await syncWorker().writes.remove('hotspot', hotspot.id);
    if ('error' in answer) {
      setDeleteError(translateServerText(i18n, callErrorText(answer.error)));
      return;
    }
    setDeleting(false);
    props.onDeleted();
  };

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
      data-testid="hotspot-form"
    >
      <Stack gap="sm">
        <TextInput
          label={t`Name`}
          required
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={page.fields.name}
        />
        <Select
          label={t`Icon`}
          data-testid="hotspot-icon"
          value={icon}
          allowDeselect={false}
          onChange={(v) => {
            if (v !== null) setIcon(v);
          }}
          data={HOTSPOT_ICONS.map((value) => ({ value, label: iconLabels[value] }))}
          renderOption={({ option }) => (
            <Group gap="xs">
              <HotspotGlyph icon={option.value} />
              {option.label}
            </Group>
          )}
          leftSection={<HotspotGlyph icon={icon} size={16} />}
        />
        <Group gap="xs">
          <Button
            size="xs"
            variant="default"
            onClick={() => setCamera(props.useView())}
            data-testid="hotspot-use-view"
          >
            <Trans>Use the current view</Trans>
          </Button>
          <Text size="xs" c="dimmed">
            {camera === null ? (
              <Trans>Looks at the point from its surface.</Trans>
            ) : (
              <Trans>Has a view of its own.</Trans>
            )}
          </Text>
        </Group>
        <EntriesEditor assetId={a.asset_id} entries={entries} onChange={setEntries} />
        {page.fields.metadata === undefined ? null : (
          <Text size="sm" c="red" role="alert">
            {page.fields.metadata}
          </Text>
        )}
        <Textarea
          label={t`Description above the QR code`}
          value={description}
          maxLength={200}
          autosize
          minRows={1}
          onChange={(e) => setDescription(e.currentTarget.value)}
          error={page.fields.qr_description}
          data-testid="hotspot-qr-description-input"
        />
        {page.error === null ? null : (
          <Alert color="red" role="alert">
            {page.error}
          </Alert>
        )}
        {page.saved === null ? null : (
          <Text size="sm" c="dimmed" role="status">
            {page.saved}
          </Text>
        )}
        <Group justify="space-between">
          <Button
            variant="subtle"
            color="red"
            onClick={() => setDeleting(true)}
            data-testid="hotspot-delete"
          >
            <Trans>Delete</Trans>
          </Button>
          <Button type="submit" data-testid="hotspot-form-save">
            <Trans>Save</Trans>
          </Button>
        </Group>
      </Stack>
      <ConfirmDelete
        opened={deleting}
        title={t`Delete the hotspot ${isolate(a.name)}?`}
        consequences={<Trans>Its QR codes lead nowhere afterwards. This cannot be undone.</Trans>}
        error={deleteError}
        confirmLabel={<Trans>Delete hotspot</Trans>}
        confirmTestId="hotspot-delete-confirm"
        onClose={() => setDeleting(false)}
        onConfirm={() => void remove()}
      />
    </form>
  );
}

/** The hotspot's entries: each shown with a remove button, and a new one of a chosen kind. */
function EntriesEditor(props: {
  readonly assetId: string;
  readonly entries: readonly HotspotMetadata[];
  readonly onChange: (entries: HotspotMetadata[]) => void;
}) {
  const { t } = useLingui();
  const [kind, setKind] = useState<Kind>('stream');
  const kindLabels: Record<Kind, string> = {
    stream: t`Data stream`,
    file: t`File`,
    link: t`Link`,
    text: t`Text`,
    position: t`Position`,
  };
  return (
    <Stack gap={6}>
      <Text size="sm" fw={600}>
        <Trans>Attached</Trans>
      </Text>
      {props.entries.map((entry, index) => (
        <Group
          key={index}
          gap="xs"
          wrap="nowrap"
          data-testid="hotspot-entry"
          data-kind={entry.kind}
        >
          <div style={{ flex: 1, minWidth: 0 }}>
            <EntryView entry={entry} assetId={props.assetId} />
          </div>
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={t`Remove`}
            onClick={() => props.onChange(props.entries.filter((_, i) => i !== index))}
          >
            ×
          </ActionIcon>
        </Group>
      ))}
      <Select
        label={t`Attach`}
        size="xs"
        value={kind}
        allowDeselect={false}
        onChange={(v) => {
          if (v !== null) setKind(v);
        }}
        data={KINDS.map((value) => ({ value, label: kindLabels[value] }))}
        data-testid="hotspot-entry-kind"
      />
      <NewEntry
        key={kind}
        kind={kind}
        assetId={props.assetId}
        onAdd={(entry) => props.onChange([...props.entries, entry])}
      />
    </Stack>
  );
}

/** The fields of a new entry of one kind, and its Add button. */
function NewEntry(props: {
  readonly kind: Kind;
  readonly assetId: string;
  readonly onAdd: (entry: HotspotMetadata) => void;
}) {
  const { t } = useLingui();
  const [choice, setChoice] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [lat, setLat] = useState<number | string>('');
  const [lon, setLon] = useState<number | string>('');
  const streams = useLiveQuery(
    props.kind === 'stream' ? { type: 'datastream', limit: 2000 } : null,
  );
  const files = useLiveQuery(
    props.kind === 'file'
      ? { type: 'file', parent: { type: 'asset', id: props.assetId }, limit: 2000 }
      : null,
  );
  const assets = useLiveQuery(props.kind === 'link' ? { type: 'asset', limit: 2000 } : null);
  const boards = useLiveQuery(props.kind === 'link' ? { type: 'dashboard', limit: 1000 } : null);
  let options: { value: string; label: string }[] = [];
  if (props.kind === 'stream')
    options = (streams?.items ?? [])
      .filter((s) => s.attributes.asset_id === props.assetId)
      .map((s) => ({ value: s.id, label: s.attributes.name }));
  if (props.kind === 'file')
    options = (files?.items ?? [])
      .filter((f) => f.attributes.kind === 'document' || f.attributes.kind === 'photo')
      .map((f) => ({ value: f.id, label: f.attributes.name }));
  if (props.kind === 'link')
    options = [
      ...(assets?.items ?? []).map((m) => ({
        value: `asset:${m.id}`,
        label: t`Asset: ${String(m.attributes.name)}`,
      })),
      ...(boards?.items ?? []).map((m) => ({
        value: `dashboard:${m.id}`,
        label: t`Dashboard: ${m.attributes.name}`,
      })),
    ];

  const add = () => {
    if (props.kind === 'text') {
      if (text.trim() === '') return;
      props.onAdd({ kind: 'text', text: text.trim() });
      setText('');
      return;
    }
    if (props.kind === 'position') {
      if (typeof lat !== 'number' || typeof lon !== 'number') return;
      props.onAdd({ kind: 'position', label: text.trim(), latitude: lat, longitude: lon });
      return;
    }
    if (choice === null) return;
    if (props.kind === 'stream') props.onAdd({ kind: 'stream', datastream_id: choice });
    if (props.kind === 'file') props.onAdd({ kind: 'file', file_id: choice });
    if (props.kind === 'link') {
      const [target, id = ''] = choice.split(':');
      props.onAdd({ kind: 'link', target: target === 'dashboard' ? 'dashboard' : 'asset', id });
    }
    setChoice(null);
  };

  return (
    <Group gap="xs" align="flex-end" wrap="wrap">
      {props.kind === 'text' ? (
        <Textarea
          size="xs"
          label={t`Text`}
          value={text}
          maxLength={2000}
          autosize
          minRows={1}
          onChange={(e) => setText(e.currentTarget.value)}
          style={{ flex: 1 }}
        />
      ) : props.kind === 'position' ? (
        <>
          <TextInput
            size="xs"
            label={t`Label`}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
          />
          <NumberInput
            size="xs"
            label={t`Latitude`}
            min={-90}
            max={90}
            decimalScale={6}
            value={lat}
            onChange={setLat}
            w={110}
          />
          <NumberInput
            size="xs"
            label={t`Longitude`}
            min={-180}
            max={180}
            decimalScale={6}
            value={lon}
            onChange={setLon}
            w={110}
          />
        </>
      ) : (
        <Select
          size="xs"
          label={t`Choose`}
          searchable
          value={choice}
          onChange={setChoice}
          data={options}
          nothingFoundMessage={t`Nothing found`}
          style={{ flex: 1 }}
          data-testid="hotspot-entry-choice"
        />
      )}
      <Button size="xs" variant="light" onClick={add} data-testid="hotspot-entry-add">
        <Trans>Add</Trans>
      </Button>
    </Group>
  );
}
