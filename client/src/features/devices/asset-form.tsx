import { useEffect, useState } from 'react';
import { ModalForm } from '../../components/modal-form';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Button,
  CloseButton,
  FileButton,
  Fieldset,
  Group,
  Image,
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
import { useMayEdit } from '../../permissions/may-edit';
import { useLiveModel, useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import {
  firstFieldWithError,
  firstIssuePerField,
  serverFieldErrors,
  translatedErrors,
} from '../user/form-errors';
import { textOf } from './asset-texts';
import { acceptOf, pickedFileProblem } from './asset-files';
import { FileImage } from './file-image';
import { devicePaths } from './paths';
import { changedFields } from '../../components/changed-fields';

const FIELDS = [
  'name',
  'mac',
  'description',
  'gateway_id',
  'photo',
  'tags',
  'position.lat',
  'position.lng',
] as const;

/** The form's fields in order, its contacts' included (`contacts.0.value`). */
function fieldsOf(draft: Draft): string[] {
  return [
    ...FIELDS,
    ...draft.contacts.flatMap((_, i) => [`contacts.${i}.name`, `contacts.${i}.value`]),
  ];
}

/** The photo as the form holds it: as it is, a new file picked, or taken away. */
type PhotoChoice =
  | { readonly kind: 'keep' }
  | { readonly kind: 'new'; readonly file: File }
  | { readonly kind: 'none' };

/** What the form edits of an asset (its documents are added on the asset's page). */
interface Draft {
  readonly name: string;
  readonly mac: string;
  readonly description: string;
  readonly gateway_id: string;
  readonly tags: readonly string[];
  /** Degrees as typed; both empty: not placed. */
  readonly lat: string;
  readonly lng: string;
  readonly contacts: readonly { readonly name: string; readonly value: string }[];
  readonly photo: PhotoChoice;
}

const EMPTY: Draft = {
  name: '',
  mac: '',
  description: '',
  gateway_id: '',
  tags: [],
  lat: '',
  lng: '',
  contacts: [],
  photo: { kind: 'keep' },
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
    contacts: (a.contacts ?? []).map((c) => ({ name: c.name, value: c.value })),
    photo: { kind: 'keep' },
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
    contacts: draft.contacts.map((c) => ({ name: c.name, value: c.value })),
  };
}

/**
 * A new photo for the asset: kept and uploaded by the worker (offline too) and named as the
 * asset's photo; the former photo file goes once the new one is stored. Taken away: the photo
 * file goes, the asset has none.
 */
async function savePhoto(
  assetId: string,
  photo: PhotoChoice,
  before: string | null,
): Promise<WorkerError | null> {
  if (photo.kind === 'keep') return null;
  const worker = syncWorker();
  let next: string | null = null;
  if (photo.kind === 'new') {
    // The former photo goes once the new one is stored: a failed upload loses neither.
    const added = await worker.files.add(
      assetId,
      'photo',
      photo.file,
      photo.file.name,
      before ?? undefined,
    );
    if ('error' in added) return added.error;
    next = added.data.id;
  }
  const set = await worker.writes.update('asset', assetId, { photo: next });
  if ('error' in set) return set.error;
  if (photo.kind === 'none' && before !== null) await worker.writes.remove('file', before);
  return null;
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
  /** The asset's photo now (a file id), shown until another is picked. */
  readonly photo?: string | null;
  readonly onSubmit: (
    attributes: Partial<ModelInput<'asset'>>,
    photo: PhotoChoice,
  ) => Promise<WorkerError | null>;
  readonly onCancel: () => void;
}) {
  const { t, i18n } = useLingui();
  const [draft, setDraft] = useState<Draft>(props.initial);
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [busy, setBusy] = useState(false);
  const gateways = useLiveQuery({ type: 'gateway', limit: 1000 });
  const translate = (text: string) => translateServerText(i18n, text);
  const set = <K extends keyof Draft>(field: K, value: Draft[K]) =>
    setDraft((d) => ({ ...d, [field]: value }));

  const setContact = (i: number, part: 'name' | 'value', value: string) =>
    setDraft((d) => ({
      ...d,
      contacts: d.contacts.map((c, j) => (j === i ? { ...c, [part]: value } : c)),
    }));

  const submit = async () => {
    const attributes = attributesOf(draft);
    const fields = fieldsOf(draft);
    const checked = assetAttributesSchema.partial().safeParse(attributes);
    const photoProblem =
      draft.photo.kind === 'new' ? pickedFileProblem(i18n, 'photo', draft.photo.file) : undefined;
    if (!checked.success || photoProblem !== undefined) {
      const found = checked.success
        ? {}
        : translatedErrors(firstIssuePerField(checked.error.issues, fields), translate);
      const all: Record<string, string | undefined> = { ...found, photo: photoProblem };
      setErrors(all);
      const first = firstFieldWithError(all, fields);
      if (first !== undefined) document.getElementById(`asset-form-${first}`)?.focus();
      return;
    }
    setBusy(true);
    const error = await props.onSubmit(attributes, draft.photo);
    setBusy(false);
    if (error === null) return;
    const onFields = translatedErrors(serverFieldErrors(error.fields, fields), translate);
    setErrors(
      Object.keys(onFields).length > 0 ? onFields : { form: translate(callErrorText(error)) },
    );
  };

  return (
    <ModalForm
      testId="asset-form"
      onSubmit={submit}
      onCancel={props.onCancel}
      submitLabel={props.submitLabel}
      error={errors.form}
      busy={busy}
    >
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
      <PhotoField
        current={props.photo ?? null}
        choice={draft.photo}
        name={draft.name}
        error={errors.photo}
        onChange={(photo) => set('photo', photo)}
      />
      <TagsInput
        id="asset-form-tags"
        label={t`Tags`}
        description={t`Press Enter after each tag.`}
        value={[...draft.tags]}
        onChange={(tags) => set('tags', tags)}
        error={errors.tags}
      />
      <Fieldset legend={t`Contacts`} data-testid="asset-contacts">
        <Stack gap="xs">
          {draft.contacts.length === 0 ? (
            <Text size="sm" c="dimmed">
              <Trans>No contacts yet.</Trans>
            </Text>
          ) : null}
          {draft.contacts.map((contact, i) => (
            <Group key={i} align="flex-start" wrap="nowrap" gap="xs">
              <TextInput
                id={`asset-form-contacts.${i}.name`}
                label={t`Contact name`}
                value={contact.name}
                onChange={(e) => setContact(i, 'name', e.currentTarget.value)}
                error={errors[`contacts.${i}.name`]}
                style={{ flex: 1 }}
              />
              <TextInput
                id={`asset-form-contacts.${i}.value`}
                label={t`E-mail, phone or Telegram`}
                value={contact.value}
                onChange={(e) => setContact(i, 'value', e.currentTarget.value)}
                error={errors[`contacts.${i}.value`]}
                style={{ flex: 1 }}
              />
              <CloseButton
                mt={28}
                aria-label={t`Remove contact ${i + 1}`}
                onClick={() =>
                  setDraft((d) => ({ ...d, contacts: d.contacts.filter((_, j) => j !== i) }))
                }
              />
            </Group>
          ))}
          <Group>
            <Button
              variant="subtle"
              size="compact-sm"
              onClick={() =>
                setDraft((d) => ({ ...d, contacts: [...d.contacts, { name: '', value: '' }] }))
              }
              data-testid="add-contact"
            >
              <Trans>Add contact</Trans>
            </Button>
          </Group>
        </Stack>
      </Fieldset>
    </ModalForm>
  );
}

/** The photo: the current one or the one picked, a picker, and a way to take it away. */
function PhotoField(props: {
  readonly current: string | null;
  readonly choice: PhotoChoice;
  readonly name: string;
  readonly error: string | undefined;
  readonly onChange: (photo: PhotoChoice) => void;
}) {
  const { t } = useLingui();
  const { choice } = props;
  const [preview, setPreview] = useState<{ file: File; url: string } | null>(null);
  const picked = choice.kind === 'new' ? choice.file : null;
  useEffect(() => {
    if (picked === null) return;
    const url = URL.createObjectURL(picked);
    setPreview({ file: picked, url });
    return () => URL.revokeObjectURL(url);
  }, [picked]);
  const shown = choice.kind === 'new' ? (preview?.file === choice.file ? preview.url : null) : null;
  const hasPhoto = choice.kind === 'new' || (choice.kind === 'keep' && props.current !== null);
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} component="label" htmlFor="asset-form-photo">
        <Trans>Photo</Trans>
      </Text>
      <Group gap="sm" align="center">
        {shown !== null ? (
          <Image src={shown} alt={t`The new photo`} w={72} h={72} fit="cover" radius="sm" />
        ) : choice.kind === 'keep' && props.current !== null ? (
          <FileImage id={props.current} alt={props.name} size={72} fallback={null} />
        ) : null}
        <FileButton
          onChange={(file) => {
            if (file !== null) props.onChange({ kind: 'new', file });
          }}
          accept={acceptOf('photo')}
        >
          {(button) => (
            <Button
              {...button}
              id="asset-form-photo"
              variant="default"
              size="compact-sm"
              aria-describedby={props.error === undefined ? undefined : 'asset-form-photo-error'}
              data-testid="asset-photo-pick"
            >
              {hasPhoto ? <Trans>Choose another photo</Trans> : <Trans>Choose a photo</Trans>}
            </Button>
          )}
        </FileButton>
        {hasPhoto ? (
          <Button
            variant="subtle"
            color="red"
            size="compact-sm"
            onClick={() =>
              props.onChange(props.current === null ? { kind: 'keep' } : { kind: 'none' })
            }
          >
            <Trans>Remove photo</Trans>
          </Button>
        ) : null}
      </Group>
      {choice.kind === 'new' ? (
        <Text size="xs" c="dimmed">
          {choice.file.name}
        </Text>
      ) : null}
      {props.error === undefined ? null : (
        <Text size="xs" c="red" id="asset-form-photo-error" role="alert">
          {props.error}
        </Text>
      )}
    </Stack>
  );
}

/**
 * The "New asset" form (asset::create), shown in new-asset-button.tsx's dialog: the asset is made
 * in the local store at once (offline too), its photo queued, and its page opens.
 */
export function NewAssetForm(props: { readonly onClose: () => void }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  return (
    <AssetFields
      initial={EMPTY}
      submitLabel={t`Create asset`}
      onCancel={props.onClose}
      onSubmit={async (attributes, photo) => {
        const answer = await syncWorker().writes.create('asset', {
          ...attributes,
          name: attributes.name ?? '',
        });
        if ('error' in answer) return answer.error;
        const photoError = await savePhoto(answer.data.id, photo, null);
        if (photoError !== null) return photoError;
        props.onClose();
        await navigate({ to: devicePaths.details(answer.data.id) });
        return null;
      }}
    />
  );
}

/**
 * "Edit asset" on the asset's page (spec 001: an asset is edited and deleted there): the form,
 * where the user may change the asset (useMayEdit). Deleting is an action of its own beside it
 * (asset-delete.tsx).
 */
export function EditAssetButton(props: { readonly model: LocalModel<'asset'> }) {
  const { t } = useLingui();
  const mayEdit = useMayEdit('asset', props.model);
  // The asset as the form opened (null: closed): what the user changed is measured from it.
  const [base, setBase] = useState<Draft | null>(null);
  // A rendering of a 3D scene as the picture is the scene's file: replaced or taken away, it
  // stays with its rendering; only an uploaded photo goes with the asset's picture.
  const current = props.model.attributes.photo;
  const pictureFile = useLiveModel('file', typeof current === 'string' ? current : '');
  const ownPhoto =
    pictureFile.name === 'found' && pictureFile.model.attributes.kind === 'photo'
      ? pictureFile.model.id
      : null;
  if (!mayEdit) return null;
  return (
    <>
      <Button
        variant="light"
        onClick={() => setBase(draftOf(props.model))}
        data-testid="edit-asset"
      >
        <Trans>Edit asset</Trans>
      </Button>
      <Modal opened={base !== null} onClose={() => setBase(null)} title={t`Edit asset`} size="lg">
        {base !== null && (
          <AssetFields
            initial={base}
            hidden={new Set(FIELDS.filter((f) => !(f in props.model.attributes)))}
            photo={
              typeof props.model.attributes.photo === 'string' ? props.model.attributes.photo : null
            }
            submitLabel={t`Save`}
            onCancel={() => setBase(null)}
            onSubmit={async (attributes, photo) => {
              const photoError = await savePhoto(props.model.id, photo, ownPhoto);
              if (photoError !== null) return photoError;
              // Only what the user changed from the asset as the form opened: a field hidden
              // from the user's roles is never written, and one another user changed meanwhile
              // keeps that change.
              const changed = changedFields(attributes, attributesOf(base));
              if (Object.keys(changed).length === 0) {
                setBase(null);
                return null;
              }
              const answer = await syncWorker().writes.update('asset', props.model.id, changed);
              if ('error' in answer) return answer.error;
              setBase(null);
              return null;
            }}
          />
        )}
      </Modal>
    </>
  );
}
