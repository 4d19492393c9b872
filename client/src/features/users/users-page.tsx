import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
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
import { z } from 'zod';
import {
  apiPaths,
  invitationSentSchema,
  ROLE_SLUGS,
  USER_EDIT_PERMISSION,
} from '@plant/shared-schema';
import { EmptyState } from '../../components/empty-state';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { useCan, useHasTag } from '../../permissions/permissions';
import type { WorkerError } from '@plant/sync-worker/api';
import { callApi } from '../../session/api';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';

/** Search starts at 3 characters (spec 001 §5). */
const SEARCH_MIN = 3;

/** A member as the list shows it: the synced `user` model with its roles' names. */
interface Member {
  readonly id: string;
  readonly firstname: string;
  readonly lastname: string;
  readonly email: string;
  readonly roles: readonly { readonly id: string; readonly name: string }[];
  readonly role_ids: readonly string[];
}

/** A role one may give: the synced `role` model. */
interface Role {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
}

/**
 * The account's members (spec 000 §2 /app/users/list, spec 001 §6), from the local store: search
 * from 3 characters, their roles (given and taken with user::edit, as writes of the synced
 * `user` model: at once, offline too, and followed live on other admins' screens), removal from
 * the account, a password-reset link, and invitations by full e-mail address with a role.
 * Invitations and reset links need the network, and say so when it is not there.
 */
export function UsersPage() {
  const { t, i18n } = useLingui();
  const can = useCan();
  const hasTag = useHasTag();
  const mayEdit = can(USER_EDIT_PERMISSION);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const text = search.trim();
  const memberResult = useLiveQuery({
    type: 'user',
    limit: 1000,
    ...(text.length >= SEARCH_MIN
      ? { search: { text, fields: ['firstname', 'lastname', 'email'] } }
      : {}),
  });
  const roleResult = useLiveQuery({ type: 'role', limit: 1000 });
  // The account's tags (features behind feature flags): internal users hand them out.
  const tagResult = useLiveQuery({ type: 'tag', limit: 1000 });
  const tags = tagResult?.items ?? [];
  const mayTag = hasTag('internal');
  const roles: readonly Role[] = (roleResult?.items ?? []).map((r) => ({
    id: r.id,
    slug: r.attributes.slug,
    name: r.attributes.name,
  }));
  const roleNames = new Map(roles.map((r) => [r.id, r.name]));
  const shown: readonly Member[] | null =
    memberResult === undefined
      ? null
      : memberResult.items.map((m) => ({
          id: m.id,
          firstname: m.attributes.firstname,
          lastname: m.attributes.lastname,
          email: m.attributes.email,
          role_ids: m.attributes.role_ids,
          roles: m.attributes.role_ids.map((id) => ({ id, name: roleNames.get(id) ?? '…' })),
        }));

  const fail = (e: WorkerError) => setError(translateServerText(i18n, callErrorText(e)));
  const done = (answer: { readonly error: WorkerError } | { readonly data: unknown }) => {
    if ('error' in answer) fail(answer.error);
    else setError(null);
  };

  const giveRole = async (member: Member, roleId: string) =>
    done(
      await syncWorker().writes.update('user', member.id, {
        role_ids: [...member.role_ids, roleId],
      }),
    );
  const takeRole = async (member: Member, roleId: string) =>
    done(
      await syncWorker().writes.update('user', member.id, {
        role_ids: member.role_ids.filter((id) => id !== roleId),
      }),
    );
  const setHolders = async (tagId: string, userIds: readonly string[]) =>
    done(await syncWorker().writes.update('tag', tagId, { user_ids: [...userIds] }));
  const remove = async (member: Member) =>
    done(await syncWorker().writes.remove('user', member.id));
  const resetLink = async (member: Member) => {
    const answer = await callApi('POST', apiPaths.memberPasswordReset(member.id), z.unknown(), {
      envelope: false,
    });
    if ('error' in answer) {
      setError(
        answer.error.kind === 'network'
          ? t`Password links need the network: try again once you are online.`
          : translateServerText(i18n, callErrorText(answer.error)),
      );
    } else setNotice(t`A link to set a new password is on its way to ${member.email}.`);
  };

  const assignable = roles.filter((r) => r.slug !== ROLE_SLUGS.norole);

  return (
    <Stack gap="md" data-testid="users-page">
      <Title order={1}>
        <Trans>Users</Trans>
      </Title>
      {error === null ? null : (
        <Alert color="red" role="alert" withCloseButton onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      {notice === null ? null : (
        <Alert color="green" role="status" withCloseButton onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      {mayEdit ? (
        <InviteForm
          roles={assignable}
          onSent={(email) => setNotice(t`Invitation sent to ${email}.`)}
        />
      ) : null}
      {mayTag ? <NewTagForm onError={setError} /> : null}
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
              {tags.length > 0 || mayTag ? (
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
            {shown.map((m) => {
              const name = `${m.firstname} ${m.lastname}`;
              const missing = assignable.filter((r) => !m.roles.some((h) => h.id === r.id));
              return (
                <Table.Tr key={m.id} data-testid="user-row" data-email={m.email}>
                  <Table.Td>
                    <Anchor component={Link} to={`/app/users/${m.id}/details`}>
                      {name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{m.email}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {m.roles.map((r) => (
                        <Badge
                          key={r.id}
                          variant="light"
                          rightSection={
                            mayEdit && m.roles.length > 1 ? (
                              <ActionIcon
                                size="xs"
                                variant="transparent"
                                aria-label={t`Take the role ${r.name} from ${name}`}
                                onClick={() => void takeRole(m, r.id)}
                              >
                                ✕
                              </ActionIcon>
                            ) : undefined
                          }
                        >
                          {r.name}
                        </Badge>
                      ))}
                      {mayEdit && missing.length > 0 ? (
                        <NativeSelect
                          size="xs"
                          aria-label={t`Give ${name} a role`}
                          value=""
                          data={[
                            { value: '', label: t`Add a role…` },
                            ...missing.map((r) => ({ value: r.id, label: r.name })),
                          ]}
                          onChange={(e) => {
                            if (e.currentTarget.value !== '')
                              void giveRole(m, e.currentTarget.value);
                          }}
                        />
                      ) : null}
                    </Group>
                  </Table.Td>
                  {tags.length > 0 || mayTag ? (
                    <Table.Td>
                      <Group gap={4}>
                        {tags
                          .filter((tag) => tag.attributes.user_ids.includes(m.id))
                          .map((tag) => (
                            <Badge
                              key={tag.id}
                              variant="outline"
                              rightSection={
                                mayTag ? (
                                  <ActionIcon
                                    size="xs"
                                    variant="transparent"
                                    aria-label={t`Take the tag ${tag.attributes.slug} from ${m.firstname} ${m.lastname}`}
                                    onClick={() =>
                                      void setHolders(
                                        tag.id,
                                        tag.attributes.user_ids.filter((u) => u !== m.id),
                                      )
                                    }
                                  >
                                    ✕
                                  </ActionIcon>
                                ) : undefined
                              }
                            >
                              {tag.attributes.slug}
                            </Badge>
                          ))}
                        {mayTag && tags.some((tag) => !tag.attributes.user_ids.includes(m.id)) ? (
                          <NativeSelect
                            size="xs"
                            aria-label={t`Give ${m.firstname} ${m.lastname} a tag`}
                            value=""
                            data={[
                              { value: '', label: t`Add a tag…` },
                              ...tags
                                .filter((tag) => !tag.attributes.user_ids.includes(m.id))
                                .map((tag) => ({ value: tag.id, label: tag.attributes.slug })),
                            ]}
                            onChange={(e) => {
                              const tag = tags.find((x) => x.id === e.currentTarget.value);
                              if (tag !== undefined) {
                                void setHolders(tag.id, [...tag.attributes.user_ids, m.id]);
                              }
                            }}
                          />
                        ) : null}
                      </Group>
                    </Table.Td>
                  ) : null}
                  {mayEdit ? (
                    <Table.Td>
                      <Group gap={4}>
                        <Button size="compact-xs" variant="light" onClick={() => void resetLink(m)}>
                          <Trans>Send password link</Trans>
                        </Button>
                        <Button
                          size="compact-xs"
                          variant="outline"
                          color="red"
                          aria-label={t`Remove ${name} from the account`}
                          onClick={() => void remove(m)}
                        >
                          <Trans>Remove</Trans>
                        </Button>
                      </Group>
                    </Table.Td>
                  ) : null}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
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
