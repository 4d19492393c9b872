import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Button,
  Group,
  Modal,
  NativeSelect,
  Stack,
  TagsInput,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { assetAttributesSchema, type ModelInput } from '@plant/shared-schema';
import type { LocalModel, WorkerError } from '@plant/sync-worker/api';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { useCan } from '../../permissions/permissions';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import {
  firstFieldWithError,
  firstIssuePerField,
  serverFieldErrors,
  translatedErrors,
} from '../user/form-errors';
import { textOf } from './asset-texts';
import { devicePaths } from './paths';

const FIELDS = [
  'name',
  'mac',
  'description',
  'gateway_id',
  'tags',
  'position.lat',
  'position.lng',
] as const;
type Field = (typeof FIELDS)[number];

/** What the form edits of an asset (photo, documents and contacts come with the files). */
interface Draft {
  readonly name: string;
  readonly mac: string;
  readonly description: string;
  readonly gateway_id: string;
  readonly tags: readonly string[];
  /** Degrees as typed; both empty: not placed. */
  readonly lat: string;
  readonly lng: string;
}

const EMPTY: Draft = {
  name: '',
  mac: '',
  description: '',
  gateway_id: '',
  tags: [],
  lat: '',
  lng: '',
};

/** A typed coordinate: a number (a comma is a decimal point too), or NaN for anything else. */
function degrees(text: string): number {
  const t = text.trim().replace(',', '.');
  return t === '' || !/^[-+]?\d+(\.\d+)?$/.test(t) ? Number.NaN : Number(t);
}

function draftOf(model: LocalModel<'asset'>): Draft {
  const a = model.attributes;
  return {
    name: textOf(a, 'name'),
    mac: textOf(a, 'mac'),
    description: textOf(a, 'description'),
    gateway_id: typeof a.gateway_id === 'string' ? a.gateway_id : '',
    tags: a.tags,
    lat: a.position === null || a.position === undefined ? '' : String(a.position.lat),
    lng: a.position === null || a.position === undefined ? '' : String(a.position.lng),
  };
}

/** The draft as the asset's attributes: empty MAC and gateway are none (null). */
function attributesOf(draft: Draft): Partial<ModelInput<'asset'>> {
  return {
    name: draft.name,
    mac: draft.mac.trim() === '' ? null : draft.mac.trim(),
    description: draft.description,
    gateway_id: draft.gateway_id === '' ? null : draft.gateway_id,
    tags: [...draft.tags],
    position:
      draft.lat.trim() === '' && draft.lng.trim() === ''
        ? null
        : { lat: degrees(draft.lat), lng: degrees(draft.lng) },
  };
}

/**
 * The asset's fields (spec 001 §5: a name is required, the MAC address optional and checked),
 * checked by the shared schema as the worker and the server do; a refusal of either shows on its
 * field. The save goes to the local store at once, offline too.
 */
function AssetFields(props: {
  readonly initial: Draft;
  /** Fields hidden from the user's roles (absent from the model it got): not shown. */
  readonly hidden?: ReadonlySet<string>;
  readonly submitLabel: string;
  readonly onSubmit: (attributes: Partial<ModelInput<'asset'>>) => Promise<WorkerError | null>;
  readonly onCancel: () => void;
}) {
  const { t, i18n } = useLingui();
  const [draft, setDraft] = useState<Draft>(props.initial);
  const [errors, setErrors] = useState<Partial<Record<Field | 'form', string>>>({});
  const [busy, setBusy] = useState(false);
  const gateways = useLiveQuery({ type: 'gateway', limit: 1000 });
  const translate = (text: string) => translateServerText(i18n, text);
  const set = <K extends keyof Draft>(field: K, value: Draft[K]) =>
    setDraft((d) => ({ ...d, [field]: value }));

  const submit = async () => {
    const attributes = attributesOf(draft);
    const checked = assetAttributesSchema.partial().safeParse(attributes);
    if (!checked.success) {
      const found = translatedErrors(firstIssuePerField(checked.error.issues, FIELDS), translate);
      setErrors(found);
      const first = firstFieldWithError(found, FIELDS);
      if (first !== undefined) document.getElementById(`asset-form-${first}`)?.focus();
      return;
    }
    setBusy(true);
    const error = await props.onSubmit(attributes);
    setBusy(false);
    if (error === null) return;
    const onFields = translatedErrors(serverFieldErrors(error.fields, FIELDS), translate);
    setErrors(
      Object.keys(onFields).length > 0 ? onFields : { form: translate(callErrorText(error)) },
    );
  };

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      data-testid="asset-form"
    >
      <Stack gap="sm">
        <TextInput
          id="asset-form-name"
          label={t`Name`}
          required
          value={draft.name}
          onChange={(e) => set('name', e.currentTarget.value)}
          error={errors.name}
          data-autofocus
        />
        <TextInput
          id="asset-form-mac"
          label={t`MAC address`}
          description={t`Optional, for example 00:1b:44:11:3a:b7`}
          value={draft.mac}
          onChange={(e) => set('mac', e.currentTarget.value)}
          error={errors.mac}
        />
        {props.hidden?.has('description') === true ? null : (
          <Textarea
            id="asset-form-description"
            label={t`Description`}
            autosize
            minRows={2}
            value={draft.description}
            onChange={(e) => set('description', e.currentTarget.value)}
            error={errors.description}
          />
        )}
        <NativeSelect
          id="asset-form-gateway_id"
          label={t`Gateway`}
          value={draft.gateway_id}
          data={[
            { value: '', label: t`No gateway` },
            ...(gateways?.items ?? []).map((g) => ({
              value: g.id,
              label: textOf(g.attributes, 'name'),
            })),
          ]}
          onChange={(e) => set('gateway_id', e.currentTarget.value)}
          error={errors.gateway_id}
        />
        <Group grow align="flex-start">
          <TextInput
            id="asset-form-position.lat"
            label={t`Latitude`}
            description={t`Degrees, for example 48.137`}
            inputMode="decimal"
            value={draft.lat}
            onChange={(e) => set('lat', e.currentTarget.value)}
            error={errors['position.lat']}
          />
          <TextInput
            id="asset-form-position.lng"
            label={t`Longitude`}
            description={t`Degrees, for example 11.575`}
            inputMode="decimal"
            value={draft.lng}
            onChange={(e) => set('lng', e.currentTarget.value)}
            error={errors['position.lng']}
          />
        </Group>
        <TagsInput
          id="asset-form-tags"
          label={t`Tags`}
          description={t`Press Enter after each tag.`}
          value={[...draft.tags]}
          onChange={(tags) => set('tags', tags)}
          error={errors.tags}
        />
        {errors.form === undefined ? null : (
          <Alert color="red" role="alert">
            {errors.form}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" loading={busy}>
            {props.submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * "New asset" on the list (asset::create): the form in a dialog; the asset is made in the local
 * store at once (offline too) and its page opens.
 */
export function NewAssetButton() {
  const { t } = useLingui();
  const can = useCan();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  if (!can('asset::create')) return null;
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="new-asset">
        <Trans>New asset</Trans>
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t`New asset`}>
        <AssetFields
          initial={EMPTY}
          submitLabel={t`Create asset`}
          onCancel={() => setOpen(false)}
          onSubmit={async (attributes) => {
            const answer = await syncWorker().writes.create('asset', {
              ...attributes,
              name: attributes.name ?? '',
            });
            if ('error' in answer) return answer.error;
            setOpen(false);
            await navigate({ to: devicePaths.details(answer.data.id) });
            return null;
          }}
        />
      </Modal>
    </>
  );
}

/**
 * "Edit Asset" on the asset's page (spec 001: an asset is edited and deleted there): the form,
 * and with asset::delete the delete, which first says what goes with the asset.
 */
export function EditAssetButton(props: { readonly model: LocalModel<'asset'> }) {
  const { t } = useLingui();
  const can = useCan();
  const [open, setOpen] = useState(false);
  if (!can('asset::edit') && !can('asset::delete')) return null;
  return (
    <>
      <Button variant="light" onClick={() => setOpen(true)} data-testid="edit-asset">
        <Trans>Edit Asset</Trans>
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t`Edit Asset`} size="lg">
        {can('asset::edit') ? (
          <AssetFields
            initial={draftOf(props.model)}
            hidden={new Set(FIELDS.filter((f) => !(f in props.model.attributes)))}
            submitLabel={t`Save`}
            onCancel={() => setOpen(false)}
            onSubmit={async (attributes) => {
              // Only what changed: a field hidden from the user's roles is never written.
              const before = attributesOf(draftOf(props.model)) as Record<string, unknown>;
              const changed = Object.fromEntries(
                Object.entries(attributes).filter(
                  ([k, v]) => JSON.stringify(v) !== JSON.stringify(before[k]),
                ),
              ) as Partial<ModelInput<'asset'>>;
              if (Object.keys(changed).length === 0) {
                setOpen(false);
                return null;
              }
              const answer = await syncWorker().writes.update('asset', props.model.id, changed);
              if ('error' in answer) return answer.error;
              setOpen(false);
              return null;
            }}
          />
        ) : null}
        {can('asset::delete') ? <DeleteAsset model={props.model} /> : null}
      </Modal>
    </>
  );
}

/** The delete, after a confirmation that counts what goes with the asset. */
function DeleteAsset(props: { readonly model: LocalModel<'asset'> }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const parent = { type: 'asset', id: props.model.id };
  const groups = useLiveQuery(asking ? { type: 'datastreamgroup', parent, limit: 1 } : null);
  const streams = useLiveQuery(
    asking
      ? {
          type: 'datastream',
          search: { text: props.model.id, fields: ['asset_id'] },
          limit: 1,
        }
      : null,
  );
  const name = textOf(props.model.attributes, 'name');
  const remove = async () => {
    const answer = await syncWorker().writes.remove('asset', props.model.id);
    if ('error' in answer) {
      setError(translateServerText(i18n, callErrorText(answer.error)));
      return;
    }
    await navigate({ to: devicePaths.list() });
  };
  if (!asking) {
    return (
      <Group justify="flex-start" mt="lg">
        <Button color="red" variant="outline" onClick={() => setAsking(true)}>
          <Trans>Delete asset</Trans>
        </Button>
      </Group>
    );
  }
  const groupCount = groups?.total ?? 0;
  const streamCount = streams?.total ?? 0;
  return (
    <Alert color="red" mt="lg" role="alertdialog" title={t`Delete ${name}?`}>
      <Stack gap="sm">
        <Text size="sm" data-testid="delete-asset-consequences">
          <Trans>
            Its {groupCount} stream groups and {streamCount} data streams are deleted with it, and
            its files with them. This cannot be undone.
          </Trans>
        </Text>
        {error === null ? null : (
          <Text c="red" size="sm" role="alert">
            {error}
          </Text>
        )}
        <Group>
          <Button variant="default" onClick={() => setAsking(false)}>
            <Trans>Keep it</Trans>
          </Button>
          <Button color="red" onClick={() => void remove()}>
            <Trans>Delete {name}</Trans>
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
