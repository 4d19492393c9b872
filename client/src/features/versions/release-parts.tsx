import { useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Badge, Button, Group, Tabs, Text } from '@mantine/core';
import { useLocation, useNavigate } from '@tanstack/react-router';
import type { ReleaseState, ReleaseTarget } from '@plant/shared-schema';
import { Name } from '../../components/name';
import { absoluteTime } from '../../components/time-ago';
import { translateServerText } from '../../i18n/server-texts';
import { useLiveModel } from '../../sync/hooks';
import { onSyncEvent } from '../../sync/bridge';
import { versionPaths } from './paths';

/** Release management's four lists, as tabs over each of their pages. */
export function VersionsNav() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const tabs = [
    { value: versionPaths.modules(), label: t`Modules` },
    { value: versionPaths.platforms(), label: t`Platforms` },
    { value: versionPaths.firmwareList(), label: t`Firmware` },
    { value: versionPaths.boardList(), label: t({ message: 'Boards', context: 'hardware' }) },
  ];
  const active = tabs.find((tab) => pathname.startsWith(tab.value))?.value ?? null;
  return (
    <Tabs
      value={active}
      onChange={(to) => {
        if (to !== null) void navigate({ to });
      }}
    >
      <Tabs.List aria-label={t`Release management`}>
        {tabs.map((tab) => (
          <Tabs.Tab key={tab.value} value={tab.value} data-testid={`versions-nav-${tab.label}`}>
            {tab.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}

/** A version's state (spec 001 §4): draft, released or active. */
export function ReleaseStateBadge({ state }: { readonly state: ReleaseState }) {
  const color = state === 'draft' ? 'gray' : state === 'released' ? 'blue' : 'green';
  return (
    <Badge color={color} variant="light" data-testid="release-state" data-state={state}>
      {state === 'draft' ? (
        <Trans>Draft</Trans>
      ) : state === 'released' ? (
        <Trans>Released</Trans>
      ) : (
        <Trans>Active</Trans>
      )}
    </Badge>
  );
}

/**
 * What the server refused of this device's writes to one model, translated (the write waited in
 * the outbox, or was sent while another user released the version): shown until the next write.
 */
export function useRefusal(
  id: string,
  /** Which of its writes: those that change the state (the head's moves), or the others. */
  moves: boolean,
): [string | null, () => void] {
  const { i18n } = useLingui();
  const [refusal, setRefusal] = useState<string | null>(null);
  useEffect(
    () =>
      onSyncEvent((event) => {
        if (event.name !== 'write-rejected' || event.write.id !== id) return;
        if ('state' in event.write.values !== moves) return;
        const field = Object.values(event.fields ?? {})[0]?.[0];
        setRefusal(translateServerText(i18n, field ?? event.message));
      }),
    [id, i18n, moves],
  );
  return [refusal, () => setRefusal(null)];
}

/** The refusal of {@link useRefusal}, as an alert. */
export function RefusalAlert({ text }: { readonly text: string | null }) {
  if (text === null) return null;
  return (
    <Alert color="red" role="alert" data-testid="release-refused">
      {text}
    </Alert>
  );
}

/** A user's name from the local store (its e-mail when it has none), null until known. */
export function useUserName(id: string | null): string | null {
  const user = useLiveModel('user', id ?? '');
  if (id === null || user.name !== 'found') return null;
  const a = user.model.attributes;
  return `${a.firstname} ${a.lastname}`.trim() || a.email;
}

/** A user's name, shown isolated ('…' until the local store has it). */
export function UserName({ id }: { readonly id: string }) {
  const name = useUserName(id);
  return name === null ? <>…</> : <Name>{name}</Name>;
}

/** A gateway's name, shown isolated ('…' until the local store has it). */
export function GatewayName({ id }: { readonly id: string }) {
  const gateway = useLiveModel('gateway', id);
  return gateway.name === 'found' ? <Name>{gateway.model.attributes.name}</Name> : <>…</>;
}

/** Who did it and when (issue 35 item 5): a user's name from the local store, the time. */
export function WhoWhen(props: {
  readonly label: string;
  readonly at: number | null;
  readonly by: string | null;
  readonly testId?: string;
}) {
  const { i18n } = useLingui();
  const name = useUserName(props.by);
  if (props.at === null) return null;
  return (
    <Text size="xs" c="dimmed" data-testid={props.testId}>
      {props.label} {absoluteTime(i18n, props.at)}
      {name === null ? null : (
        <>
          {' · '}
          <Name>{name}</Name>
        </>
      )}
    </Text>
  );
}

/** A form's Save (a submit button) with the last save's confirmation beside it. */
export function SaveWithConfirmation(props: {
  readonly saved: string | null;
  readonly testId?: string;
}) {
  return (
    <Group gap="sm" justify="flex-end">
      {props.saved === null ? null : (
        <Text size="sm" c="green" role="status">
          {props.saved}
        </Text>
      )}
      <Button type="submit" data-testid={props.testId}>
        <Trans>Save</Trans>
      </Button>
    </Group>
  );
}

/** What a version is of, in words. */
export function targetLabel(target: ReleaseTarget) {
  return target === 'agent' ? (
    <Trans>Gateway agent</Trans>
  ) : target === 'firmware' ? (
    <Trans>Firmware</Trans>
  ) : (
    <Trans>Module</Trans>
  );
}
