import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Button,
  Checkbox,
  Chip,
  Group,
  NativeSelect,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { PasswordInput } from '../../components/password-input';
import { useParams } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import {
  apiPaths,
  LANGUAGES,
  USER_EDIT_PERMISSION,
  NOTIFICATION_CHANNELS,
  notificationSettingsSchema,
  userProfileSchema,
  type NotificationSettings,
  type UserProfile,
} from '@plant/shared-schema';
import { callApi } from '../../session/api';
import {
  LoadState,
  PageError,
  SavedNote,
  useLoaded,
  usePageState,
} from '../../components/page-state';
import { useUnsaved } from '../../components/unsaved';
import { sessionAtom } from '../../state/session';
import { EmptyState } from '../../components/empty-state';
import { useCan, useHasTag } from '../../permissions/permissions';
import { useLiveModel } from '../../sync/hooks';
import {
  ActionNotices,
  MemberButtons,
  MemberRoles,
  MemberTags,
  useMemberActions,
  useMemberDirectory,
} from './member-actions';
import { Name } from '../../components/name';

const PROFILE_FIELDS = ['firstname', 'lastname', 'email', 'phone', 'language', 'password'] as const;
const NOTIFICATION_FIELDS = [
  'channels',
  'window.days',
  'window.from',
  'window.to',
  'window.timezone',
] as const;

function useUserId(): string {
  const { userid = '' }: { userid?: string } = useParams({ strict: false });
  return userid;
}

/** /app/users/{userid}/details (spec 001 §3 User): names, e-mail, phone, language. */
export function UserDetailsPage() {
  const { t } = useLingui();
  const userId = useUserId();
  const [loaded, replace] = useLoaded(userId, () =>
    callApi('GET', apiPaths.userProfile(userId), userProfileSchema),
  );
  const [edited, setEdited] = useState<UserProfile | null>(null);
  const { changed, saving } = useUnsaved();
  const [password, setPassword] = useState('');
  const self = useAtomValue(sessionAtom)?.user.id === userId;
  const page = usePageState(PROFILE_FIELDS);
  const [busy, setBusy] = useState(false);

  if (loaded.name !== 'loaded') return <LoadState state={loaded} />;
  const loadedEmail = loaded.data.email;
  const profile = edited ?? loaded.data;
  const errors = page.fields;

  const set = (field: keyof UserProfile) => (value: string) => {
    setEdited({ ...profile, [field]: value });
    changed();
  };

  const save = async () => {
    const checked = page.check(userProfileSchema.safeParse(profile));
    if (checked === null) return;
    setBusy(true);
    const ended = saving();
    const emailMoves = checked.email !== loadedEmail;
    const answer = await callApi('PUT', apiPaths.userProfile(userId), userProfileSchema, {
      body: emailMoves ? { ...checked, password } : checked,
    });
    setBusy(false);
    if (!page.took(answer, 'call') || 'error' in answer) return;
    replace(answer.data);
    // What was typed while the server answered stays in the form, to be saved next.
    if (!ended()) return;
    setEdited(null);
    setPassword('');
  };

  return (
    <Stack gap="md" maw={520} data-testid="user-details">
      <Title order={1}>
        <Trans>User details</Trans>
      </Title>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
        noValidate
      >
        <Stack gap="sm">
          <TextInput
            label={t`First name`}
            value={profile.firstname}
            onChange={(e) => set('firstname')(e.currentTarget.value)}
            error={errors.firstname}
            required
          />
          <TextInput
            label={t`Last name`}
            value={profile.lastname}
            onChange={(e) => set('lastname')(e.currentTarget.value)}
            error={errors.lastname}
            required
          />
          <TextInput
            label={t`Email`}
            type="email"
            value={profile.email}
            onChange={(e) => set('email')(e.currentTarget.value)}
            error={errors.email}
            readOnly={!self}
            description={self ? undefined : t`Only the user can change its own e-mail address.`}
            required
          />
          {self && profile.email !== loadedEmail ? (
            <PasswordInput
              label={t`Your password`}
              description={t`A new e-mail address needs your password.`}
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              error={errors.password}
              autoComplete="current-password"
              required
            />
          ) : null}
          <TextInput
            label={t`Phone`}
            type="tel"
            value={profile.phone}
            onChange={(e) => set('phone')(e.currentTarget.value)}
            error={errors.phone}
          />
          <NativeSelect
            label={t`Language`}
            value={profile.language}
            data={LANGUAGES.map((l) => ({ value: l, label: l }))}
            onChange={(e) => set('language')(e.currentTarget.value)}
          />
          <PageError error={page.error} />
          <Group>
            <Button type="submit" loading={busy}>
              <Trans>Save</Trans>
            </Button>
            <SavedNote saved={page.saved} />
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}

const DAYS = [1, 2, 3, 4, 5, 6, 0] as const;

/**
 * /app/users/{userid}/notifications (spec 001 §3, §9): the channels alarms reach the user on,
 * and a window of times; outside it, delivery waits for the next slot.
 */
export function UserNotificationsPage() {
  const { t } = useLingui();
  const userId = useUserId();
  const [loaded, replace] = useLoaded(userId, () =>
    callApi('GET', apiPaths.userNotifications(userId), notificationSettingsSchema),
  );
  const [edited, setSettings] = useState<NotificationSettings | null>(null);
  const page = usePageState(NOTIFICATION_FIELDS);
  const dayNames = [t`Sun`, t`Mon`, t`Tue`, t`Wed`, t`Thu`, t`Fri`, t`Sat`];

  if (loaded.name !== 'loaded') return <LoadState state={loaded} />;
  const settings = edited ?? loaded.data;
  const window = settings.window;
  const errors = page.fields;

  const save = async () => {
    const checked = page.check(notificationSettingsSchema.safeParse(settings));
    if (checked === null) return;
    const answer = await callApi(
      'PUT',
      apiPaths.userNotifications(userId),
      notificationSettingsSchema,
      { body: checked },
    );
    if (!page.took(answer, 'call') || 'error' in answer) return;
    replace(answer.data);
    setSettings(null);
  };

  return (
    <Stack gap="md" maw={560} data-testid="user-notifications">
      <Title order={1}>
        <Trans>Notifications</Trans>
      </Title>
      <Checkbox.Group
        label={t`Channels`}
        value={[...settings.channels]}
        onChange={(value) =>
          setSettings({
            ...settings,
            channels: NOTIFICATION_CHANNELS.filter((c) => value.includes(c)),
          })
        }
      >
        <Group mt="xs">
          <Checkbox value="mail" label={t`E-mail`} />
          <Checkbox value="sms" label={t`SMS`} />
          <Checkbox value="push" label={t`Push`} />
        </Group>
      </Checkbox.Group>
      <Switch
        label={t`Only at certain times`}
        checked={window !== null}
        onChange={(e) =>
          setSettings({
            ...settings,
            window: e.currentTarget.checked
              ? {
                  days: [1, 2, 3, 4, 5],
                  from: '07:00',
                  to: '18:00',
                  timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
                }
              : null,
          })
        }
      />
      {window === null ? (
        <Text size="sm" c="dimmed">
          <Trans>Alarms reach you at any time.</Trans>
        </Text>
      ) : (
        <Stack gap="xs">
          <Chip.Group
            multiple
            value={window.days.map(String)}
            onChange={(value) =>
              setSettings({ ...settings, window: { ...window, days: value.map(Number) } })
            }
          >
            <Group gap={4} role="group" aria-label={t`Days`}>
              {DAYS.map((d) => (
                <Chip key={d} value={String(d)} size="xs">
                  {dayNames[d]}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
          {errors['window.days'] === undefined ? null : (
            <Text c="red" size="sm">
              {errors['window.days']}
            </Text>
          )}
          <Group>
            <TextInput
              label={t`From`}
              type="time"
              value={window.from}
              onChange={(e) =>
                setSettings({ ...settings, window: { ...window, from: e.currentTarget.value } })
              }
              error={errors['window.from']}
            />
            <TextInput
              label={t`To`}
              type="time"
              value={window.to}
              onChange={(e) =>
                setSettings({ ...settings, window: { ...window, to: e.currentTarget.value } })
              }
              error={errors['window.to']}
            />
          </Group>
          <Text size="sm" c="dimmed">
            <Trans>
              Times in {window.timezone}. Outside them, alarms wait for the next time they may reach
              you.
            </Trans>
          </Text>
        </Stack>
      )}
      <PageError error={page.error} />
      <Group>
        <Button onClick={() => void save()}>
          <Trans>Save</Trans>
        </Button>
        <SavedNote saved={page.saved} />
      </Group>
    </Stack>
  );
}

/**
 * /app/users/{userid}/actions: what can be done to the member in this account, from the local
 * store: its roles (given and taken with user::edit), its tags (internal users), a password
 * link, and removal from the account. Without user::edit the roles and tags are shown only.
 */
export function UserActionsPage() {
  const { t } = useLingui();
  const userId = useUserId();
  const can = useCan();
  const hasTag = useHasTag();
  const mayEdit = can(USER_EDIT_PERMISSION);
  const mayTag = hasTag('internal');
  const actions = useMemberActions();
  const { assignable, tags, toMember } = useMemberDirectory();
  const state = useLiveModel('user', userId);
  if (state.name === 'loading') {
    return (
      <Text c="dimmed">
        <Trans>Loading…</Trans>
      </Text>
    );
  }
  if (state.name === 'missing') {
    return <EmptyState title={t`This user is not a member of the account.`} />;
  }
  const member = toMember(state.model);
  return (
    <Stack gap="md" maw={720} data-testid="user-actions">
      <Title order={1}>
        <Name>{`${member.firstname} ${member.lastname}`}</Name>
      </Title>
      <ActionNotices actions={actions} />
      <Stack gap={4}>
        <Text fw={600}>
          <Trans>Roles</Trans>
        </Text>
        <MemberRoles member={member} assignable={assignable} mayEdit={mayEdit} actions={actions} />
      </Stack>
      {tags.length > 0 || mayTag ? (
        <Stack gap={4}>
          <Text fw={600}>
            <Trans>Tags</Trans>
          </Text>
          <MemberTags member={member} tags={tags} mayTag={mayTag} actions={actions} />
        </Stack>
      ) : null}
      {mayEdit ? (
        <MemberButtons member={member} actions={actions} size="sm" />
      ) : (
        <Text c="dimmed">
          <Trans>Please ask your administrator for the necessary permissions</Trans>
        </Text>
      )}
    </Stack>
  );
}
