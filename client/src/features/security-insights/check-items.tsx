import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Badge, Group, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { InsightCheck, InsightItem } from '@plant/shared-schema';
import { DataTable } from '../../components/data-table';
import { Name } from '../../components/name';
import { absoluteTime } from '../../components/time-ago';
import { CHECK_WORDS, ITEM_TYPE_WORDS, REASON_WORDS } from './check-texts';

/** Where an item opens, if it has a page: a member's details, a gateway's. */
function itemPath(item: InsightItem): string | undefined {
  if (item.type === 'member') return `/app/users/${encodeURIComponent(item.id)}/details`;
  if (item.type === 'gateway') return `/app/gateways/${encodeURIComponent(item.id)}/details`;
  return undefined;
}

/** What the "last" column means for a check's items (members: their last activity). */
function LastHeader(props: { readonly check: InsightCheck }) {
  const id = props.check.id;
  if (id === 'revoked_keys') return <Trans>Last knock</Trans>;
  if (id === 'tokens') return <Trans>Last used</Trans>;
  return <Trans>Last active</Trans>;
}

/**
 * A check's failing items, as the server sent them (only what this user may see; at most
 * INSIGHT_LIMITS.itemsMax, the count says how many there are): each named, why it is listed,
 * and when it last happened where the check weighs that.
 */
export function CheckItems(props: { readonly check: InsightCheck }) {
  const { t, i18n } = useLingui();
  const { check } = props;
  if (check.items.length === 0) return null;
  const hasCount = check.items.some((i) => i.count !== null);
  const hasAt =
    check.id === 'inactive_members' || check.id === 'tokens' || check.id === 'revoked_keys';
  const hasDetail = check.items.some((i) => i.detail !== null);
  const title = i18n._(CHECK_WORDS[check.id].title);
  return (
    <>
      <DataTable
        rows={check.items}
        name={{ label: t`Items of ${title}` }}
        testId="insight-items"
        rowKey={(item) => `${item.type}:${item.id}`}
        rowData={(item) => ({ 'data-testid': 'insight-item', 'data-id': item.id })}
        empty={null}
        columns={[
          {
            id: 'name',
            header: <Trans>Name</Trans>,
            rowHeader: true,
            cell: (item) => {
              const to = itemPath(item);
              const name = <Name>{item.name === '' ? item.id : item.name}</Name>;
              return to === undefined ? (
                name
              ) : (
                <Anchor component={Link} to={to}>
                  {name}
                </Anchor>
              );
            },
          },
          {
            id: 'type',
            header: <Trans>Kind</Trans>,
            cell: (item) => i18n._(ITEM_TYPE_WORDS[item.type]),
          },
          {
            id: 'reasons',
            header: <Trans>Why</Trans>,
            cell: (item) => (
              <Group gap={4}>
                {item.reasons.map((r) => (
                  <Badge key={r} variant="light" color={r === 'admin' ? 'orange' : 'red'}>
                    {i18n._(REASON_WORDS[r])}
                  </Badge>
                ))}
              </Group>
            ),
          },
          hasCount && {
            id: 'count',
            header: <Trans>Count</Trans>,
            cell: (item) => item.count ?? '–',
          },
          hasAt && {
            id: 'at',
            header: <LastHeader check={check} />,
            cell: (item) =>
              item.at === null ? (
                <Text span size="sm" c="dimmed">
                  <Trans>never</Trans>
                </Text>
              ) : (
                absoluteTime(i18n, item.at)
              ),
          },
          hasDetail && {
            id: 'detail',
            header: <DetailHeader check={check} />,
            cell: (item) => (item.detail === null ? '–' : <Name>{item.detail}</Name>),
          },
        ]}
      />
      {check.count > check.items.length &&
      check.id !== 'signin_refusals' &&
      check.id !== 'broker_refusals' &&
      check.id !== 'admins' ? (
        <Text size="xs" c="dimmed">
          <Trans>
            The first {check.items.length} of {check.count} are listed.
          </Trans>
        </Text>
      ) : null}
    </>
  );
}

/** What the detail column holds for a check's items (members: their e-mail address). */
function DetailHeader(props: { readonly check: InsightCheck }) {
  const id = props.check.id;
  if (id === 'tokens') return <Trans>Owner</Trans>;
  if (id === 'gateway_agents') return <Trans>Agent version</Trans>;
  if (id === 'opcua_security') return <Trans>Gateway</Trans>;
  return <Trans>E-mail address</Trans>;
}
