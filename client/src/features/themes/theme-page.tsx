import './catalogues';
import { useEffect, useMemo, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Anchor,
  Button,
  ColorInput,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  TextInput,
  Title,
} from '@mantine/core';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import {
  designOfTheme,
  hexColorField,
  themeAttributesSchema,
  type ThemeAttributes,
  type ThemeImageField as ImageField,
} from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { ConfirmDelete } from '../../components/confirm-delete';
import { EmptyState } from '../../components/empty-state';
import { Name } from '../../components/name';
import { PageError, SavedNote, usePageState } from '../../components/page-state';
import { ThemePreview } from '../../components/theme-preview';
import { useUnsaved } from '../../components/unsaved';
import { translateServerText } from '../../i18n/server-texts';
import { useCan } from '../../permissions/permissions';
import { useMayEdit } from '../../permissions/may-edit';
import { useLiveModel, useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { themePaths } from './paths';
import { ThemeImageField } from './theme-image-field';
import { useFormBase } from '../../components/changed-fields';

/** /app/themes/{themeid} (spec 001 §3 Theme): its fields, images and a live preview. */
export function ThemePage() {
  const { themeid = '' }: { themeid?: string } = useParams({ strict: false });
  const state = useLiveModel('theme', themeid);
  if (state.name === 'loading') return <Skeleton height={320} />;
  if (state.name === 'missing')
    return (
      <EmptyState title={<Trans>There is no such theme in this account</Trans>}>
        <Button component={Link} to={themePaths.list()} variant="light">
          <Trans>All themes</Trans>
        </Button>
      </EmptyState>
    );
  return <ThemeDetails key={state.model.id} theme={state.model} />;
}

type Draft = Omit<ThemeAttributes, 'color1' | 'color2'> & {
  /** As typed: checked as the user types, saved once it is a readable hex code. */
  readonly color1: string;
  readonly color2: string;
};

const FIELDS = [
  'title',
  'color1',
  'color2',
  'login_image',
  'logo_mobile',
  'logo_desktop',
  'logo_mobile_dark',
  'logo_desktop_dark',
] as const;

function draftOf(a: ThemeAttributes): Draft {
  return { ...a, color1: a.color1 ?? '', color2: a.color2 ?? '' };
}

/** The draft as attributes: an empty colour is none. */
function attributesOf(draft: Draft) {
  return {
    ...draft,
    color1: draft.color1.trim() === '' ? null : draft.color1.trim(),
    color2: draft.color2.trim() === '' ? null : draft.color2.trim(),
  };
}

function ThemeDetails({ theme }: { readonly theme: LocalModel<'theme'> }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const editable = useMayEdit('theme', theme);
  const can = useCan();
  const [draft, setDraft] = useState<Draft>(() => draftOf(theme.attributes));
  const { dirty, changed, saving } = useUnsaved();
  // Images chosen whose files are still being kept on this device: their field is set only then,
  // so a save before it would leave the image out of the theme (and lose it for the user).
  const [adding, setAdding] = useState(0);
  const stored = theme.attributes;
  // The stored theme the draft was taken from: a save sends only what the draft changed of it.
  const base = useFormBase(stored, dirty);
  useEffect(() => {
    // Another tab's or user's save shows here unless this form has changes of its own.
    if (!dirty) setDraft(draftOf(stored));
  }, [stored, dirty]);
  const page = usePageState(FIELDS);
  const accounts = useLiveQuery({ type: 'account', limit: 5000 });
  const shownBy = (accounts?.items ?? []).filter((a) => a.attributes.theme_id === theme.id);
  const set = <K extends keyof Draft>(field: K, value: Draft[K]) => {
    setDraft((old) => ({ ...old, [field]: value }));
    changed();
  };
  // The spec's messages as the user types (spec 001 §5), the contrast check with them.
  const live = (field: 'title' | 'color1' | 'color2'): string | undefined => {
    const value = attributesOf(draft)[field];
    if (field !== 'title' && value === null) return undefined;
    const parsed = themeAttributesSchema.shape[field].safeParse(value);
    return parsed.success
      ? undefined
      : translateServerText(i18n, parsed.error.issues[0]?.message ?? '');
  };
  const preview = useMemo(() => {
    const a = attributesOf(draft);
    const readable = (hex: string | null) => (hexColorField.safeParse(hex).success ? hex : null);
    return designOfTheme(theme.id, {
      ...a,
      title: a.title.trim() === '' ? stored.title : a.title,
      color1: readable(a.color1),
      color2: readable(a.color2),
    });
  }, [draft, theme.id, stored.title]);
  const save = async () => {
    if (adding > 0) return;
    const checked = page.check(themeAttributesSchema.safeParse(attributesOf(draft)));
    if (checked === null) return;
    // Only the fields changed here: another user's change of the others meanwhile stays (a
    // superseded image's file is gone with that change, and naming it again would be refused).
    // A written change is the next save's base, even if an edit during this one keeps the
    // form's draft (a save then sent these fields again, over another admin's change meanwhile).
    const saved = saving();
    const written = await base.save(checked, async (change) =>
      page.took(await syncWorker().writes.update('theme', theme.id, change), 'write'),
    );
    if (written) saved();
  };
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const remove = async () => {
    const answer = await syncWorker().writes.remove('theme', theme.id);
    if ('error' in answer) {
      const field = Object.values(answer.error.fields ?? {})[0]?.[0];
      setDeleteError(translateServerText(i18n, field ?? answer.error.message));
      return;
    }
    await navigate({ to: themePaths.list() });
  };
  const image = (field: ImageField, label: string) => (
    <ThemeImageField
      themeId={theme.id}
      label={label}
      value={draft[field]}
      disabled={!editable}
      error={page.fields[field]}
      testId={`theme-${field}`}
      onChange={(fileId) => set(field, fileId)}
      onAdding={(started) => setAdding((n) => n + (started ? 1 : -1))}
    />
  );
  return (
    <Stack gap="md" data-testid="theme-details" data-id={theme.id}>
      <Group justify="space-between">
        <Title order={1}>
          <Name>{stored.title}</Name>
        </Title>
        <Anchor component={Link} to={themePaths.list()} size="sm">
          <Trans>All themes</Trans>
        </Anchor>
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Paper withBorder p="md" radius="sm">
          <form
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void save();
            }}
          >
            <Stack gap="sm">
              <TextInput
                label={t`Title`}
                placeholder={t`Enter theme title`}
                required
                value={draft.title}
                readOnly={!editable}
                onChange={(e) => set('title', e.currentTarget.value)}
                error={page.fields.title ?? live('title')}
                data-testid="theme-title"
              />
              {(['color1', 'color2'] as const).map((field) => (
                <ColorInput
                  key={field}
                  label={field === 'color1' ? t`Color1` : t`Color2`}
                  description={
                    field === 'color1'
                      ? t`Buttons and the header's strip; white text goes on it.`
                      : t`The sign-in page's band and the side strip; white text goes on it.`
                  }
                  value={draft[field]}
                  readOnly={!editable}
                  placeholder="#0b5394"
                  format="hex"
                  fixOnBlur={false}
                  withEyeDropper={false}
                  onChange={(text) => set(field, text.trim())}
                  error={page.fields[field] ?? live(field)}
                  data-testid={`theme-${field}`}
                />
              ))}
              {image('login_image', t`Login image`)}
              {image('logo_mobile', t`Mobile logo`)}
              {image('logo_desktop', t`Desktop logo`)}
              {image('logo_mobile_dark', t`Mobile logo (dark)`)}
              {image('logo_desktop_dark', t`Desktop logo (dark)`)}
              <PageError error={page.error} />
              {editable ? (
                <Group>
                  <Button type="submit" loading={adding > 0} data-testid="theme-save">
                    <Trans>Save</Trans>
                  </Button>
                  <SavedNote saved={page.saved} />
                </Group>
              ) : null}
            </Stack>
          </form>
        </Paper>
        <Stack gap="sm">
          <Title order={2} size="h4">
            <Trans>Preview</Trans>
          </Title>
          <ThemePreview design={preview} />
          <Title order={2} size="h4">
            <Trans>Accounts showing it</Trans>
          </Title>
          {shownBy.length === 0 ? (
            <EmptyState title={<Trans>No account has picked this theme yet</Trans>} />
          ) : (
            <Stack gap={2} component="ul" data-testid="theme-accounts">
              {shownBy.map((a) => (
                <li key={a.id}>
                  <Anchor component={Link} to={`/app/accounts/${encodeURIComponent(a.id)}/design`}>
                    <Name>{a.attributes.name}</Name>
                  </Anchor>
                </li>
              ))}
            </Stack>
          )}
          {can('theme::delete') ? (
            <Button
              variant="light"
              color="red"
              w="fit-content"
              onClick={() => {
                setDeleteError(null);
                setDeleting(true);
              }}
              data-testid="theme-delete"
            >
              <Trans>Delete theme</Trans>
            </Button>
          ) : null}
        </Stack>
      </SimpleGrid>
      <ConfirmDelete
        opened={deleting}
        title={t`Delete theme`}
        consequences={
          shownBy.length > 0 ? (
            <Trans>Accounts show this theme: pick another theme there first.</Trans>
          ) : (
            <Trans>The theme and its images are deleted. This cannot be undone.</Trans>
          )
        }
        disabled={shownBy.length > 0}
        error={deleteError}
        confirmLabel={<Trans>Delete</Trans>}
        onClose={() => setDeleting(false)}
        onConfirm={() => void remove()}
      />
    </Stack>
  );
}
