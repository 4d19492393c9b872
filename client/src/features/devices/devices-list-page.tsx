import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import {
  Anchor,
  Button,
  CloseButton,
  Group,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Link } from '@tanstack/react-router';
import { atom, useAtom, useAtomValue } from 'jotai';
import { LIMITS } from '@plant/shared-schema';
import { EmptyState } from '../../components/empty-state';
import { NewAssetButton } from './asset-form';
import { useCan } from '../../permissions/permissions';
import {
  useLiveModel,
  useLiveQuery,
  useLiveWindow,
  type ListQuery,
  type ListRange,
} from '../../sync/hooks';
import { activeAccountIdAtom } from '../../state/session';
import { syncStatusAtom } from '../../sync/status';
import { textOf } from './asset-texts';
import { DevicesTable, ROW_HEIGHT, useCellTabIndex } from './devices-table';
import classes from './devices.module.css';
import { devicePaths } from './paths';

/** What the search looks at (spec 001 §3: an asset's name, description and MAC address). */
const SEARCH_FIELDS = ['name', 'description', 'mac'] as const;
const SEARCH_DEBOUNCE_MS = 250;

/**
 * The search and the scroll position stay while the user looks at an asset and comes back; they
 * belong to the account they were made in (another account's list starts afresh).
 */
const listStateAtom = atom<{
  readonly account: string | null;
  readonly search: string;
  readonly scroll: number;
}>({
  account: null,
  search: '',
  scroll: 0,
});

function useListState() {
  const account = useAtomValue(activeAccountIdAtom);
  const [stored, setStored] = useAtom(listStateAtom);
  const mine = stored.account === account;
  // Both setters keep their identity (the table saves its scroll position when it unmounts).
  const setSearch = useCallback(
    (search: string) => setStored({ account, search, scroll: 0 }),
    [setStored, account],
  );
  const setScroll = useCallback(
    (scroll: number) =>
      setStored((s) =>
        s.account === account ? { ...s, scroll } : { account, search: '', scroll },
      ),
    [setStored, account],
  );
  return {
    search: mine ? stored.search : '',
    scroll: mine ? stored.scroll : 0,
    setSearch,
    setScroll,
  };
}

/**
 * /app/devices/list: every asset of the account, from the local store only (DESIGN.md invariant
 * 1), live, searchable from 3 characters, in a virtualised table that asks the worker for the
 * rows on screen only.
 */
export function DevicesListPage() {
  const { t } = useLingui();
  const { search, scroll, setSearch, setScroll } = useListState();
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const term = debounced.length >= LIMITS.searchMin ? debounced : '';
  const query = useMemo<ListQuery<'asset'>>(
    () => ({
      type: 'asset',
      ...(term === '' ? {} : { search: { text: term, fields: SEARCH_FIELDS } }),
    }),
    [term],
  );
  const [range, setRange] = useState<ListRange>({ start: 0, end: 30 });
  const onRangeChange = useCallback(
    (next: ListRange) => setRange((r) => (r.start === next.start && r.end === next.end ? r : next)),
    [],
  );
  const list = useLiveWindow(query, range);
  // While searching, the count line also says of how many: one more count-only query.
  const all = useLiveQuery(term === '' ? null : { type: 'asset', limit: 1 });
  const { bootstrap } = useAtomValue(syncStatusAtom);
  const loaded = bootstrap.name === 'done';
  const can = useCan();
  const gatewayCell = useGatewayCell(can('gateway::view'));

  const short = search.trim().length > 0 && search.trim().length < LIMITS.searchMin;
  const total = list.total;
  let content: ReactNode;
  if (total === undefined || (total === 0 && !loaded && bootstrap.name !== 'error')) {
    content = <ListSkeleton />;
  } else if (total === 0 && term !== '') {
    content = (
      <EmptyState title={<Trans>No assets match “{term}”</Trans>}>
        <Text c="dimmed" ta="center">
          <Trans>
            Check the spelling, or search for a part of a name, description or MAC address.
          </Trans>
        </Text>
        <Button variant="light" onClick={() => setSearch('')}>
          <Trans>Clear search</Trans>
        </Button>
      </EmptyState>
    );
  } else if (total === 0 && !loaded) {
    content = (
      <EmptyState title={<Trans>The assets could not be loaded yet</Trans>}>
        <Text c="dimmed" ta="center">
          <Trans>
            The server cannot be reached right now. The list fills in by itself once the connection
            is back.
          </Trans>
        </Text>
      </EmptyState>
    );
  } else if (total === 0) {
    content = (
      <EmptyState title={<Trans>No assets yet</Trans>}>
        <Text c="dimmed" ta="center">
          <Trans>
            This account has no assets. Machines and plants added to it appear here as soon as they
            sync.
          </Trans>
        </Text>
      </EmptyState>
    );
  } else {
    content = (
      <DevicesTable
        total={total}
        at={list.at}
        onRangeChange={onRangeChange}
        resetKey={term}
        highlight={term}
        initialOffset={scroll}
        onLeave={setScroll}
        {...(gatewayCell === undefined ? {} : { gatewayCell })}
      />
    );
  }

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Title order={1}>
          <Trans>Assets</Trans>
        </Title>
        <NewAssetButton />
        <CountLine
          total={list.complete ? total : undefined}
          all={term === '' ? total : all?.complete === true ? all.total : undefined}
          searching={term !== ''}
        />
      </Group>
      <TextInput
        type="search"
        label={t`Search assets`}
        placeholder={t`Name, description or MAC address`}
        description={
          short ? (
            <Trans>Type at least 3 characters to search. All assets are shown until then.</Trans>
          ) : (
            <Trans>Searches names, descriptions and MAC addresses, from 3 characters.</Trans>
          )
        }
        value={search}
        maxLength={250}
        onChange={(event) => setSearch(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && search !== '') {
            event.preventDefault();
            setSearch('');
          }
        }}
        rightSection={
          search === '' ? null : (
            <CloseButton aria-label={t`Clear search`} onClick={() => setSearch('')} />
          )
        }
        data-testid="devices-search"
      />
      {content}
    </Stack>
  );
}

/**
 * "12 assets", or "3 of 12 assets" while searching; announced politely as it changes. Until the
 * total is final (the account's first load streams in) it says so instead of a count.
 */
function CountLine({
  total,
  all,
  searching,
}: {
  readonly total: number | undefined;
  readonly all: number | undefined;
  readonly searching: boolean;
}) {
  let text: ReactNode;
  if (total === undefined || all === undefined) {
    text = <Trans>Loading assets…</Trans>;
  } else if (searching) {
    text = (
      <Trans>
        {total} of <Plural value={all} one="# asset" other="# assets" />
      </Trans>
    );
  } else {
    text = <Plural value={total} one="# asset" other="# assets" />;
  }
  return (
    <Text c="dimmed" role="status" aria-live="polite" data-testid="devices-count" component="div">
      {text}
    </Text>
  );
}

/** Grey placeholder rows (spec 000 §5: skeletons are grey or white; §9: gap 10). */
function ListSkeleton() {
  return (
    <div className={classes.skeletonRows} aria-busy role="status" data-testid="devices-loading">
      <VisuallyHidden>
        <Trans>Loading assets…</Trans>
      </VisuallyHidden>
      {Array.from({ length: 8 }, (_, i) => (
        <Skeleton key={i} height={ROW_HEIGHT - 10} aria-hidden />
      ))}
    </div>
  );
}

/**
 * The gateway column's cell. The account's gateways come from one live query (up to 1000, the
 * most a window holds); with more than that, a name not among them is watched by itself.
 */
function useGatewayCell(enabled: boolean): ((gatewayId: string | null) => ReactNode) | undefined {
  const result = useLiveQuery(enabled ? { type: 'gateway', limit: 1000 } : null);
  return useMemo(() => {
    if (!enabled) return undefined;
    const names = new Map(result?.items.map((g) => [g.id, textOf(g.attributes, 'name')]));
    const complete = result !== undefined && result.total <= result.items.length;
    const GatewayCell = (gatewayId: string | null) => {
      if (gatewayId === null) return <NoGateway />;
      const name = names.get(gatewayId);
      if (name !== undefined) return <GatewayLink id={gatewayId} name={name} />;
      return complete ? <NoGateway /> : <WatchedGateway id={gatewayId} />;
    };
    return GatewayCell;
  }, [enabled, result]);
}

/** In the tab order in the table's current row only (roving tabindex, devices-table.tsx). */
function GatewayLink({ id, name }: { readonly id: string; readonly name: string }) {
  const tabIndex = useCellTabIndex();
  return (
    <Anchor component={Link} to={devicePaths.gatewayDetails(id)} inherit tabIndex={tabIndex}>
      {name}
    </Anchor>
  );
}

function WatchedGateway({ id }: { readonly id: string }) {
  const state = useLiveModel('gateway', id);
  if (state.name === 'found') {
    return <GatewayLink id={id} name={textOf(state.model.attributes, 'name')} />;
  }
  return state.name === 'loading' ? null : <NoGateway />;
}

function NoGateway() {
  return (
    <>
      <Text span inherit c="dimmed" aria-hidden>
        —
      </Text>
      <VisuallyHidden>
        <Trans>No gateway</Trans>
      </VisuallyHidden>
    </>
  );
}
