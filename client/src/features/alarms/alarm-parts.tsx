import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Badge, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { AlarmAttributes } from '@plant/shared-schema';
import { useLiveModel } from '../../sync/hooks';
import { devicePaths } from '../devices/paths';
import { streamShapeOf, valueText } from '../devices/stream-values';
import { shownState, type ShownState } from './alarm-rows';
import { Name } from '../../components/name';
import { absoluteTime } from '../../components/time-ago';

/* Small pieces the alarm screens share: states, names of what an alarm watches. */

/** An acknowledgement made on this device and not sent yet: shown as made (issue 30 item 14). */
export function AcknowledgedHere() {
  return (
    <Text span size="sm" c="orange" data-testid="alarm-acknowledged-here">
      <Trans>Acknowledged on this device</Trans>
    </Text>
  );
}

const STATE_COLORS: Record<ShownState, string> = {
  normal: 'green',
  pending: 'orange',
  active: 'red',
  shelved: 'gray',
};

/** Normal, Pending, Active, or Shelved until a time. */
export function StateBadge(props: {
  readonly alarm: Pick<
    AlarmAttributes,
    'status' | 'shelved_until' | 'severity' | 'enabled' | 'name' | 'asset_id'
  >;
  readonly now: number;
}) {
  const { i18n } = useLingui();
  const state = shownState(props.alarm, props.now);
  const until = props.alarm.shelved_until;
  const label =
    state === 'shelved' && until !== null ? (
      <Trans>Shelved until {absoluteTime(i18n, until)}</Trans>
    ) : state === 'active' ? (
      <Trans>Active</Trans>
    ) : state === 'pending' ? (
      <Trans>Pending</Trans>
    ) : (
      <Trans>Normal</Trans>
    );
  return (
    <Badge
      color={STATE_COLORS[state]}
      variant={state === 'active' ? 'filled' : 'light'}
      tt="none"
      data-testid="alarm-state"
      data-state={state}
    >
      {label}
    </Badge>
  );
}

/** A model's name from the local store, linked where it has a page. */
export function AssetName(props: { readonly id: string; readonly link?: boolean }) {
  const state = useLiveModel('asset', props.id);
  if (state.name !== 'found')
    return (
      <Text span c="dimmed">
        …
      </Text>
    );
  const name = state.model.attributes.name;
  if (props.link === false) return <Name>{name}</Name>;
  return (
    <Anchor component={Link} to={devicePaths.details(props.id)} size="sm">
      <Name>{name}</Name>
    </Anchor>
  );
}

export function StreamName(props: {
  readonly id: string;
  readonly assetId: string;
  readonly link?: boolean;
}) {
  const state = useLiveModel('datastream', props.id);
  if (state.name !== 'found')
    return (
      <Text span c="dimmed">
        …
      </Text>
    );
  const name = state.model.attributes.name;
  if (props.link === false) return <Name>{name}</Name>;
  return (
    <Anchor component={Link} to={devicePaths.stream(props.assetId, props.id)} size="sm">
      <Name>{name}</Name>
    </Anchor>
  );
}

/** A user of the account by name (or "a user" when this user may not see the members). */
/** How a user is named: its full name, or its e-mail address without one. */
export function userDisplayName(a: {
  readonly firstname: string;
  readonly lastname: string;
  readonly email: string;
}): string {
  return `${a.firstname} ${a.lastname}`.trim() || a.email;
}

export function UserName(props: { readonly id: string }) {
  const state = useLiveModel('user', props.id);
  if (state.name === 'loading') return <>…</>;
  if (state.name === 'missing') return <Trans>a user</Trans>;
  return <Name>{userDisplayName(state.model.attributes)}</Name>;
}

/** How the latest raise's notifications went, shown only when something is wrong. */
export function DeliveryNote(props: { readonly status: AlarmAttributes['status'] }) {
  const delivery = props.status?.delivery;
  if (delivery === undefined) return null;
  if (delivery.state === 'failed') {
    return (
      <Text span size="sm" c="red" data-testid="alarm-delivery" data-state="failed">
        <Trans>Not delivered</Trans>
        {delivery.error === null ? null : `: ${delivery.error}`}
      </Text>
    );
  }
  if (delivery.state === 'retrying') {
    const attempts = delivery.attempts;
    return (
      <Text span size="sm" c="orange" data-testid="alarm-delivery" data-state="retrying">
        <Trans>Retrying (attempt {attempts})</Trans>
      </Text>
    );
  }
  return null;
}

/**
 * The value an alarm judged, as its stream shows values (a state stream's state text), with the
 * alarm's unit (or the stream's).
 */
export function AlarmValue(props: {
  readonly value: number | null;
  readonly streamId: string;
  readonly unit: string | null;
}) {
  const { i18n } = useLingui();
  const stream = useLiveModel('datastream', props.streamId);
  if (props.value === null) {
    return (
      <Text span c="dimmed" size="sm">
        –
      </Text>
    );
  }
  if (stream.name !== 'found') return <>{i18n.number(props.value)}</>;
  const shape = streamShapeOf(stream.model.attributes);
  const unit = shape.type === 'number' ? (props.unit ?? shape.unit) : '';
  return <>{`${valueText(i18n, shape, props.value)}${unit === '' ? '' : ` ${unit}`}`}</>;
}
