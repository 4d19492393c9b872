import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, Alert, Badge, Button, Group, NativeSelect } from '@mantine/core';
import { useAtomValue } from 'jotai';
import { z } from 'zod';
import { isolate, apiPaths, ROLE_SLUGS, type ModelAttributes } from '@plant/shared-schema';
import type { LocalModel, Result } from '@plant/sync-worker/api';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { callApi } from '../../session/api';
import { sessionAtom } from '../../state/session';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { Name } from '../../components/name';

/** A member as the screens show it: the synced `user` model with its roles' names. */
export interface Member extends ModelAttributes<'user'> {
  readonly id: string;
  readonly roles: readonly { readonly id: string; readonly name: string }[];
}

/** A role one may give: the synced `role` model. */
export interface Role {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
}

export type Tag = LocalModel<'tag'>;

/**
 * The roles and tags of the account from the local store, and how a member model reads with
 * its roles' names. Roles the member screens hand out exclude norole.
 */
export function useMemberDirectory() {
  const roleResult = useLiveQuery({ type: 'role', limit: 1000 });
  const tagResult = useLiveQuery({ type: 'tag', limit: 1000 });
  const roles: readonly Role[] = (roleResult?.items ?? []).map((r) => ({
    id: r.id,
    slug: r.attributes.slug,
    name: r.attributes.name,
  }));
  // The signed-in user's own roles are named by its session: without account::view the roles
  // never reach this device, and its own roles read '…' for good.
  const own = useAtomValue(sessionAtom)?.user.roles ?? [];
  const names = new Map([...own, ...roles].map((r) => [r.id, r.name]));
  // '…' while the roles load; once loaded, a role this device cannot read is left out.
  const unknown = roleResult === undefined ? '…' : null;
  const toMember = (m: LocalModel<'user'>): Member => ({
    id: m.id,
    ...m.attributes,
    roles: m.attributes.role_ids.flatMap((id) => {
      const name = names.get(id) ?? unknown;
      return name === null ? [] : [{ id, name }];
    }),
  });
  return {
    assignable: roles.filter((r) => r.slug !== ROLE_SLUGS.norole),
    tags: tagResult?.items ?? [],
    toMember,
  };
}

/**
 * What an admin does to a member (spec 001 §6), with the outcome to show: roles given and taken
 * and removal are writes of the synced models (at once, queued offline, followed live by other
 * admins); a password link is a network call and says so offline.
 */
export function useMemberActions() {
  const { t, i18n } = useLingui();
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const done = (answer: Result<unknown>) => {
    if ('error' in answer) setError(translateServerText(i18n, callErrorText(answer.error)));
    else setError(null);
    return !('error' in answer);
  };
  return {
    error,
    notice,
    setError,
    setNotice,
    // Each list write names what it was made against (`base`): the server applies only this
    // change, so a write queued offline keeps what another admin changed meanwhile.
    giveRole: async (member: Member, roleId: string) =>
      done(
        await syncWorker().writes.update('user', member.id, {
          role_ids: [...member.role_ids, roleId],
          base: { role_ids: member.role_ids },
        }),
      ),
    takeRole: async (member: Member, roleId: string) =>
      done(
        await syncWorker().writes.update('user', member.id, {
          role_ids: member.role_ids.filter((id) => id !== roleId),
          base: { role_ids: member.role_ids },
        }),
      ),
    setHolders: async (tag: Tag, userIds: readonly string[]) =>
      done(
        await syncWorker().writes.update('tag', tag.id, {
          user_ids: [...userIds],
          base: { user_ids: tag.attributes.user_ids },
        }),
      ),
    remove: async (member: Member) => done(await syncWorker().writes.remove('user', member.id)),
    resetLink: async (member: Member) => {
      const answer = await callApi('POST', apiPaths.memberPasswordReset(member.id), z.unknown(), {
        envelope: false,
      });
      if ('error' in answer) {
        setError(
          answer.error.kind === 'network'
            ? t`Password links need the network: try again once you are online.`
            : translateServerText(i18n, callErrorText(answer.error)),
        );
      } else setNotice(t`A link to set a new password is on its way to ${isolate(member.email)}.`);
    },
  };
}

export type MemberActions = ReturnType<typeof useMemberActions>;

/** The actions' error and notice, each closable. */
export function ActionNotices(props: { readonly actions: MemberActions }) {
  const { error, notice, setError, setNotice } = props.actions;
  return (
    <>
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
    </>
  );
}

/** The member's roles as badges (X takes one, never the last) and a menu to give another. */
export function MemberRoles(props: {
  readonly member: Member;
  readonly assignable: readonly Role[];
  readonly mayEdit: boolean;
  readonly actions: MemberActions;
}) {
  const { t } = useLingui();
  const { member: m, mayEdit, actions } = props;
  // Isolated: the names are inside the labels' text.
  const name = isolate(`${m.firstname} ${m.lastname}`);
  const missing = props.assignable.filter((r) => !m.role_ids.includes(r.id));
  return (
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
                aria-label={t`Take the role ${isolate(r.name)} from ${name}`}
                onClick={() => void actions.takeRole(m, r.id)}
              >
                ✕
              </ActionIcon>
            ) : undefined
          }
        >
          <Name>{r.name}</Name>
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
            if (e.currentTarget.value !== '') void actions.giveRole(m, e.currentTarget.value);
          }}
        />
      ) : null}
    </Group>
  );
}

/** The member's tags as badges; internal users take them (X) and give others (menu). */
export function MemberTags(props: {
  readonly member: Member;
  readonly tags: readonly Tag[];
  readonly mayTag: boolean;
  readonly actions: MemberActions;
}) {
  const { t } = useLingui();
  const { member: m, tags, mayTag, actions } = props;
  // Isolated: the names are inside the labels' text.
  const name = isolate(`${m.firstname} ${m.lastname}`);
  const held = tags.filter((tag) => tag.attributes.user_ids.includes(m.id));
  const others = tags.filter((tag) => !tag.attributes.user_ids.includes(m.id));
  return (
    <Group gap={4}>
      {held.map((tag) => (
        <Badge
          key={tag.id}
          variant="outline"
          // A slug is one word, its hyphens included: the column makes room for it whole.
          styles={{ label: { whiteSpace: 'nowrap' } }}
          rightSection={
            mayTag ? (
              <ActionIcon
                size="xs"
                variant="transparent"
                aria-label={t`Take the tag ${isolate(tag.attributes.slug)} from ${name}`}
                onClick={() =>
                  void actions.setHolders(
                    tag,
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
      {mayTag && others.length > 0 ? (
        <NativeSelect
          size="xs"
          aria-label={t`Give ${name} a tag`}
          value=""
          data={[
            { value: '', label: t`Add a tag…` },
            ...others.map((tag) => ({ value: tag.id, label: tag.attributes.slug })),
          ]}
          onChange={(e) => {
            const tag = others.find((x) => x.id === e.currentTarget.value);
            if (tag !== undefined) void actions.setHolders(tag, [...tag.attributes.user_ids, m.id]);
          }}
        />
      ) : null}
    </Group>
  );
}

/** Send a password link, remove from the account. */
export function MemberButtons(props: {
  readonly member: Member;
  readonly actions: MemberActions;
  readonly size?: 'compact-xs' | 'sm';
}) {
  const { t } = useLingui();
  const { member: m, actions } = props;
  const size = props.size ?? 'compact-xs';
  return (
    <Group gap={4}>
      <Button size={size} variant="light" onClick={() => void actions.resetLink(m)}>
        <Trans>Send password link</Trans>
      </Button>
      <Button
        size={size}
        variant="outline"
        color="red"
        aria-label={t`Remove ${isolate(m.firstname)} ${isolate(m.lastname)} from the account`}
        onClick={() => void actions.remove(m)}
      >
        <Trans>Remove</Trans>
      </Button>
    </Group>
  );
}
