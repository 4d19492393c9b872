import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  NumberInput,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import {
  HOTSPOT_ICONS,
  hotspotAttributesSchema,
  isolate,
  type HotspotIcon,
  type HotspotMetadata,
  type SceneCamera,
} from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { useFormBase } from '../../components/changed-fields';
import { ConfirmDelete } from '../../components/confirm-delete';
import { usePageState } from '../../components/page-state';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { EntryView } from './hotspot-entries';
import { HotspotGlyph } from './hotspot-icons';
import { useSceneOwner } from './owner';

/*
 * A hotspot's edit form (issue 32 item 4, edit mode only: a chunk of its own): name, icon from the
 * icon font, its view, its entries, the QR description; Save and Delete.
 */

const KINDS = ['stream', 'file', 'link', 'text', 'position'] as const;
type Kind = (typeof KINDS)[number];

/** The edit mode's form: name, icon, view, entries, QR description; Save and Delete. */
export function HotspotForm(props: {
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
  const [helpArticle, setHelpArticle] = useState(
    a.help_article === null ? '' : String(a.help_article),
  );
  const page = usePageState(['name', 'help_article', 'metadata', 'qr_description']);
  // A save writes what the user changed (another user's change of the rest meanwhile stays).
  const base = useFormBase(a, true);
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
        .pick({
          name: true,
          icon: true,
          camera: true,
          metadata: true,
          qr_description: true,
          help_article: true,
        })
        .safeParse({
          name,
          icon,
          camera,
          metadata: entries,
          qr_description: description,
          // Empty: none; anything else goes as typed (the schema says what it takes).
          help_article: helpArticle.trim() === '' ? null : Number(helpArticle.trim()),
        }),
    );
    if (checked === null) return;
    await base.save(checked, async (change) =>
      page.took(await syncWorker().writes.update('hotspot', hotspot.id, change), 'write'),
    );
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
        <TextInput
          label={t`Help article (number)`}
          description={t`The help centre article about this part, as in help/136. Empty: none.`}
          inputMode="numeric"
          value={helpArticle}
          onChange={(e) => setHelpArticle(e.currentTarget.value)}
          error={page.fields.help_article}
          data-testid="hotspot-help-article"
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
  /** The hotspot's asset; null on a template's scene (its streams by key, no files). */
  readonly assetId: string | null;
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
            <EntryView entry={entry} />
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
        data={KINDS.filter((k) => props.assetId !== null || k !== 'file').map((value) => ({
          value,
          label: kindLabels[value],
        }))}
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
  readonly assetId: string | null;
  readonly onAdd: (entry: HotspotMetadata) => void;
}) {
  const { t } = useLingui();
  const [choice, setChoice] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [lat, setLat] = useState<number | string>('');
  const [lon, setLon] = useState<number | string>('');
  const owner = useSceneOwner();
  const assetId = props.assetId;
  const streams = useLiveQuery(
    props.kind === 'stream' && assetId !== null ? { type: 'datastream', limit: 2000 } : null,
  );
  const files = useLiveQuery(
    props.kind === 'file' && assetId !== null
      ? { type: 'file', parent: { type: 'asset', id: assetId }, limit: 2000 }
      : null,
  );
  const assets = useLiveQuery(props.kind === 'link' ? { type: 'asset', limit: 2000 } : null);
  const boards = useLiveQuery(props.kind === 'link' ? { type: 'dashboard', limit: 1000 } : null);
  let options: { value: string; label: string }[] = [];
  if (props.kind === 'stream')
    options =
      assetId === null
        ? [...(owner?.templateStreams ?? [])].map(([value, label]) => ({ value, label }))
        : (streams?.items ?? [])
            .filter((s) => s.attributes.asset_id === assetId)
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
