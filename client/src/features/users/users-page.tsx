import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Anchor,
  Button,
  Group,
  NativeSelect,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { Link } from '@tanstack/react-router';
import {
  apiPaths,
  invitationSentSchema,
  isolate,
  USER_EDIT_PERMISSION,
} from '@plant/shared-schema';
import { EmptyState } from '../../components/empty-state';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { useCan, useHasTag } from '../../permissions/permissions';
import { callApi } from '../../session/api';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import {
  ActionNotices,
  MemberButtons,
  MemberRoles,
  MemberTags,
  useMemberActions,
  useMemberDirectory,
  type Role,
} from './member-actions';
import { Name } from '../../components/name';
import { SentInvitations } from './sent-invitations';

/** Search starts at 3 characters (spec 001 §5). */
const SEARCH_MIN = 3;

/**
 * The account's members (spec 000 §2 /app/users/list, spec 001 §6), from the local store: search
 * from 3 characters, their roles (given and taken with user::edit, as writes of the synced
 * `user` model: at once, offline too, and followed live on other admins' screens), their tags
 * (internal users), removal from the account, a password-reset link, and invitations by full
 * e-mail address with a role, and the sent invitations with their state (sent again or revoked).
 * Invitations and reset links need the network, and say so.
 */
export function UsersPage() {
  const { t } = useLingui();
  const can = useCan();
  const hasTag = useHasTag();
  const mayEdit = can(USER_EDIT_PERMISSION);
  const mayTag = hasTag('internal');
  const actions = useMemberActions();
  const { assignable, tags, toMember } = useMemberDirectory();
  const [search, setSearch] = useState('');
  // Bumped by every invitation sent: the list of sent invitations reads again.
  const [sentVersion, setSentVersion] = useState(0);
  const text = search.trim();
  const memberResult = useLiveQuery({
    type: 'user',
    limit: 1000,
    ...(text.length >= SEARCH_MIN
      ? { search: { text, fields: ['firstname', 'lastname', 'email'] } }
      : {}),
  });
  const shown = memberResult?.items.map(toMember) ?? null;
  const withTags = tags.length > 0 || mayTag;

  return (
    <Stack gap="md" data-testid="users-page">
      <Title order={1}>
        <Trans>Users</Trans>
      </Title>
      <ActionNotices actions={actions} />
      {mayEdit ? (
        <InviteForm
          roles={assignable}
          onSent={(email) => {
            actions.setNotice(t`Invitation sent to ${{ email: isolate(email) }}.`);
            setSentVersion((v) => v + 1);
          }}
        />
      ) : null}
      {mayTag ? <NewTagForm onError={actions.setError} /> : null}
      <TextInput
        label={t`Search`}
        description={t`From ${SEARCH_MIN} characters: name or e-mail address`}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        maw={360}
      />
      {shown === null ? (
        <Text c="dimmed">
          <Trans>Loading users…</Trans>
        </Text>
      ) : shown.length === 0 ? (
        <EmptyState title={t`No user matches the search.`} />
      ) : (
        <Table striped data-testid="users-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>
                <Trans>Name</Trans>
              </Table.Th>
              <Table.Th>
                <Trans>E-mail</Trans>
              </Table.Th>
              <Table.Th>
                <Trans>Roles</Trans>
              </Table.Th>
              {withTags ? (
                <Table.Th>
                  <Trans>Tags</Trans>
                </Table.Th>
              ) : null}
              {mayEdit ? (
                <Table.Th>
                  <Trans>Actions</Trans>
                </Table.Th>
              ) : null}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((m) => (
              <Table.Tr key={m.id} data-testid="user-row" data-email={m.email}>
                <Table.Td>
                  <Anchor component={Link} to={`/app/users/${m.id}/details`}>
                    <Name>{`${m.firstname} ${m.lastname}`}</Name>
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Name>{m.email}</Name>
                </Table.Td>
                <Table.Td>
                  <MemberRoles
                    member={m}
                    assignable={assignable}
                    mayEdit={mayEdit}
                    actions={actions}
                  />
                </Table.Td>
                {withTags ? (
                  <Table.Td>
                    <MemberTags member={m} tags={tags} mayTag={mayTag} actions={actions} />
                  </Table.Td>
                ) : null}
                {mayEdit ? (
                  <Table.Td>
                    <MemberButtons member={m} actions={actions} />
                  </Table.Td>
                ) : null}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {mayEdit ? <SentInvitations version={sentVersion} /> : null}
    </Stack>
  );
}

/** A new tag of the account (internal users): a slug, given to members from the list. */
function NewTagForm(props: { readonly onError: (error: string | null) => void }) {
  const { t, i18n } = useLingui();
  const [slug, setSlug] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = async () => {
    const answer = await syncWorker().writes.create('tag', { slug: slug.trim() });
    if ('error' in answer) {
      const field = answer.error.fields?.slug?.[0];
      setError(translateServerText(i18n, field ?? callErrorText(answer.error)));
      return;
    }
    setError(null);
    props.onError(null);
    setSlug('');
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void create();
      }}
      data-testid="new-tag-form"
    >
      <Group align="flex-start">
        <TextInput
          label={t`New tag`}
          description={t`Lower-case letters, digits and dashes; it opens the features behind it.`}
          value={slug}
          onChange={(e) => setSlug(e.currentTarget.value)}
          error={error}
        />
        <Button type="submit" mt={45} variant="light">
          <Trans>Create tag</Trans>
        </Button>
      </Group>
    </form>
  );
}

function InviteForm(props: {
  readonly roles: readonly Role[];
  readonly onSent: (email: string) => void;
}) {
  const { t, i18n } = useLingui();
  const [email, setEmail] = useState('');
  const [roleId, setRoleId] = useState('');
  const [errors, setErrors] = useState<{ email?: string; role?: string; other?: string }>({});
  const [busy, setBusy] = useState(false);
  const role = roleId === '' ? (props.roles[0]?.id ?? '') : roleId;
  const send = async () => {
    setBusy(true);
    const answer = await callApi('POST', apiPaths.invitations(), invitationSentSchema, {
      body: { email: email.trim(), role_id: role },
    });
    setBusy(false);
    if ('error' in answer) {
      const fields = answer.error.fields;
      const first = (key: string) => {
        const message = fields?.[key]?.[0];
        return message === undefined ? undefined : translateServerText(i18n, message);
      };
      const onEmail = first('email');
      const onRole = first('role_id');
      setErrors({
        ...(onEmail === undefined ? {} : { email: onEmail }),
        ...(onRole === undefined ? {} : { role: onRole }),
        ...(onEmail === undefined && onRole === undefined
          ? {
              other:
                answer.error.kind === 'network'
                  ? t`Invitations need the network: try again once you are online.`
                  : translateServerText(i18n, callErrorText(answer.error)),
            }
          : {}),
      });
      return;
    }
    setErrors({});
    setEmail('');
    props.onSent(answer.data.email);
  };
  return (
    <Paper withBorder p="sm" maw={720}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
        data-testid="invite-form"
      >
        <Group align="flex-start">
          <TextInput
            label={t`Invite by e-mail`}
            type="email"
            autoComplete="off"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={errors.email}
            required
          />
          <NativeSelect
            label={t`Role`}
            value={role}
            data={props.roles.map((r) => ({ value: r.id, label: r.name }))}
            onChange={(e) => setRoleId(e.currentTarget.value)}
            error={errors.role}
          />
          <Button type="submit" mt={25} loading={busy}>
            <Trans>Invite</Trans>
          </Button>
        </Group>
        {errors.other === undefined ? null : (
          <Text c="red" size="sm" role="alert" mt="xs">
            {errors.other}
          </Text>
        )}
      </form>
    </Paper>
  );
}
