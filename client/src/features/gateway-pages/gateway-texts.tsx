import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Text, Tooltip } from '@mantine/core';
import { useAtomValue } from 'jotai';
import type { LocalModel } from '@plant/sync-worker/api';
import { serverReachableAtom } from '../../sync/status';
import { textOf } from '../devices/asset-texts';
import { Name } from '../../components/name';

/**
 * Online or offline, as the server's presence says (spec 001 §4). While this page does not hear
 * the server, that is only the last known state and the badge says so (issue 30 item 14).
 */
export function OnlineBadge({
  gateway,
  size,
}: {
  readonly gateway: LocalModel<'gateway'>;
  readonly size?: 'sm';
}) {
  const { t } = useLingui();
  const reachable = useAtomValue(serverReachableAtom);
  const online = gateway.attributes.connection === 'online';
  const badge = (
    <Badge
      variant="dot"
      size={size ?? 'md'}
      color={!reachable ? 'gray' : online ? 'green' : 'gray'}
      data-testid="gateway-online"
      data-online={online}
      data-last-known={!reachable}
    >
      {reachable ? (
        online ? (
          <Trans>Online</Trans>
        ) : (
          <Trans>Offline</Trans>
        )
      ) : online ? (
        <Trans>Last known: online</Trans>
      ) : (
        <Trans>Last known: offline</Trans>
      )}
    </Badge>
  );
  return reachable ? (
    badge
  ) : (
    <Tooltip label={t`This device is offline: the gateway's state may have changed since.`}>
      {badge}
    </Tooltip>
  );
}

/** When the gateway was last heard from. */
export function LastSeen({ gateway }: { readonly gateway: LocalModel<'gateway'> }) {
  const { i18n } = useLingui();
  const seen = textOf(gateway.attributes, 'last_seen');
  if (seen === '') {
    return (
      <Text span c="dimmed" size="sm">
        <Trans>Never</Trans>
      </Text>
    );
  }
  return (
    <Text span size="sm">
      {i18n.date(new Date(seen), { dateStyle: 'medium', timeStyle: 'short' })}
    </Text>
  );
}

const STATE_COLORS = {
  connected: 'green',
  connecting: 'blue',
  failed: 'red',
  disabled: 'gray',
} as const;

/** A connection's state as its agent reported it, the error in a tooltip. */
export function ConnectionState({ connection }: { readonly connection: LocalModel<'connection'> }) {
  const { t } = useLingui();
  const status = connection.attributes.status;
  const name = textOf(connection.attributes, 'name');
  const state = status?.state;
  const label =
    state === 'connected'
      ? t`connected`
      : state === 'connecting'
        ? t`connecting`
        : state === 'failed'
          ? t`failed`
          : state === 'disabled'
            ? t`disabled`
            : t`not reported yet`;
  const badge = (
    <Badge
      size="sm"
      variant="light"
      color={state === undefined ? 'gray' : STATE_COLORS[state]}
      data-testid="connection-state"
      data-state={state ?? 'unknown'}
    >
      <Name>{name}</Name>: {label}
    </Badge>
  );
  return status?.error ? <Tooltip label={status.error}>{badge}</Tooltip> : badge;
}
