import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Text, Tooltip } from '@mantine/core';
import type { LocalModel } from '@plant/sync-worker/api';
import { textOf } from '../devices/asset-texts';
import { Name } from '../../components/name';

/** Online or offline, as the server's presence says (spec 001 §4). */
export function OnlineBadge({ gateway }: { readonly gateway: LocalModel<'gateway'> }) {
  const online = gateway.attributes.connection === 'online';
  return (
    <Badge
      variant="dot"
      color={online ? 'green' : 'gray'}
      data-testid="gateway-online"
      data-online={online}
    >
      {online ? <Trans>Online</Trans> : <Trans>Offline</Trans>}
    </Badge>
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
