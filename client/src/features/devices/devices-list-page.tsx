import { lazy, Suspense, useCallback, useMemo, useState, type ReactNode } from 'react';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import {
  Anchor,
  Button,
  Checkbox,
  CloseButton,
  Group,
  NativeSelect,
  Popover,
  SegmentedControl,
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
import { NewAssetButton } from './new-asset-button';
import { useCan } from '../../permissions/permissions';
import {
  useLiveModel,
  useLiveQuery,
  useLiveWindow,
  type ListQuery,
  type ListRange,
} from '../../sync/hooks';
import {
  DEVICE_COLUMNS,
  deviceColumnsAtom,
  deviceViewAtom,
  type DeviceColumn,
  type DeviceView,
} from '../../state/preferences';
import { activeAccountIdAtom } from '../../state/session';
import { syncStatusAtom } from '../../sync/status';
import { textOf } from './asset-texts';
import {
  DEFAULT_SORT,
  DevicesTable,
  ROW_HEIGHT,
  useCellTabIndex,
  type DeviceSort,
  type SortableColumn,
} from './devices-table';
import classes from './devices.module.css';
import { devicePaths } from './paths';

/** The map and MapLibre load only when the map is chosen: a chunk of their own. */
const DevicesMap = lazy(() => import('./devices-map'));
/* The cards load when the panel is chosen: the table is the first view, and stays light. */
const DevicesPanel = lazy(() =>
  import('./devices-panel').then((m) => ({ default: m.DevicesPanel })),
);

/** What the search looks at (spec 001 §3: an asset's name, description and MAC address). */
const SEARCH_FIELDS = ['name', 'description', 'mac'] as const;
const SEARCH_DEBOUNCE_MS = 250;

interface ListState {
  readonly account: string | null;
  readonly search: string;
  /** The tag the views are narrowed to (null: every asset). */
  readonly tag: string | null;
  readonly sort: DeviceSort;
  /** Scroll positions of the table and of the panel. */
  readonly scroll: { readonly table: number; readonly panel: number };
}

const FRESH: Omit<ListState, 'account'> = {
  search: '',
  tag: null,
  sort: DEFAULT_SORT,
  scroll: { table: 0, panel: 0 },
};

/**
 * The search, the tag, the order and the scroll positions stay while the user looks at an asset
 * and comes back; they belong to the account they were made in (another account's list starts
 * afresh). The view and the table's columns are the user's preferences: they stay for good
 * (state/preferences.ts).
 */
const listStateAtom = atom<ListState>({ account: null, ...FRESH });

function useListState() {
  const account = useAtomValue(activeAccountIdAtom);
  const [stored, setStored] = useAtom(listStateAtom);
  const mine = stored.account === account ? stored : { account, ...FRESH };
  // The setters keep their identity (the table saves its scroll position when it unmounts).
  const update = useCallback(
    (change: (s: ListState) => Partial<ListState>) =>
      setStored((s) => {
        const current = s.account === account ? s : { account, ...FRESH };
        return { ...current, ...change(current) };
      }),
    [setStored, account],
  );
  // A new search, tag or order starts at the top.
  const setSearch = useCallback(
    (search: string) => update(() => ({ search, scroll: FRESH.scroll })),
    [update],
  );
  const setTag = useCallback(
    (tag: string | null) => update(() => ({ tag, scroll: FRESH.scroll })),
    [update],
  );
  const setSort = useCallback(
    (sort: DeviceSort) => update(() => ({ sort, scroll: FRESH.scroll })),
    [update],
  );
  const setTableScroll = useCallback(
    (table: number) => update((s) => ({ scroll: { ...s.scroll, table } })),
    [update],
  );
  const setPanelScroll = useCallback(
    (panel: number) => update((s) => ({ scroll: { ...s.scroll, panel } })),
    [update],
  );
  return { ...mine, setSearch, setTag, setSort, setTableScroll, setPanelScroll };
}

/**
 * /app/devices/list: every asset of the account, from the local store only (DESIGN.md invariant
 * 1), live, searchable from 3 characters and narrowed by a tag, in the view the user chose
 * (issue 16): cards (panel), the table (columns chosen and sorted) or the map. Panel and table are
 * virtualised and ask the worker for the rows on screen only.
 */
export function DevicesListPage() {
  const { t } = useLingui();
  const state = useListState();
  const { search, tag, sort, setSearch, setTag, setSort } = state;
  const [view, setView] = useAtom(deviceViewAtom);
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const term = debounced.length >= LIMITS.searchMin ? debounced : '';
  // What every view shows: the search and the tag. The table adds its order.
  const filter = useMemo<ListQuery<'asset'>>(
    () => ({
      type: 'asset',
      ...(term === '' ? {} : { search: { text: term, fields: SEARCH_FIELDS } }),
      ...(tag === null ? {} : { contains: { field: 'tags', value: tag } }),
    }),
    [term, tag],
  );
  const sorted = view === 'table' && (sort.column !== 'name' || sort.direction !== 'asc');
  const query = useMemo<ListQuery<'asset'>>(
    () =>
      sorted ? { ...filter, sort: { field: sort.column, direction: sort.direction } } : filter,
    [filter, sorted, sort],
  );
  const [range, setRange] = useState<ListRange>({ start: 0, end: 30 });
  const onRangeChange = useCallback(
    (next: ListRange) => setRange((r) => (r.start === next.start && r.end === next.end ? r : next)),
    [],
  );
  const list = useLiveWindow(query, range);
  const narrowed = term !== '' || tag !== null;
  // While narrowed, the count line also says of how many; the tags to choose come with it.
  const all = useLiveQuery({ type: 'asset', limit: 1, facet: 'tags' });
  const { bootstrap } = useAtomValue(syncStatusAtom);
  const loaded = bootstrap.name === 'done';
  const can = useCan();
  const gatewayCell = useGatewayCell(can('gateway::view'));
  const [columns, setColumns] = useAtom(deviceColumnsAtom);
  const onSort = useCallback(
    (column: SortableColumn) =>
      setSort({
        column,
        direction: sort.column === column && sort.direction === 'asc' ? 'desc' : 'asc',
      }),
    [setSort, sort],
  );
  const resetKey = JSON.stringify([term, tag, sorted ? sort : null]);

  const short = search.trim().length > 0 && search.trim().length < LIMITS.searchMin;
  const total = list.total;
  let content: ReactNode;
  if (total === undefined || (total === 0 && !loaded && bootstrap.name !== 'error')) {
    content = <ListSkeleton />;
  } else if (total === 0 && narrowed) {
    content = (
      <NoMatch
        term={term}
        tag={tag}
        onClearSearch={() => setSearch('')}
        onClearTag={() => setTag(null)}
      />
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
  } else if (view === 'panel') {
    content = (
      <Suspense fallback={<ViewLoading />}>
        <DevicesPanel
          total={total}
          at={list.at}
          onRangeChange={onRangeChange}
          resetKey={resetKey}
          highlight={term}
          initialOffset={state.scroll.panel}
          onLeave={state.setPanelScroll}
        />
      </Suspense>
    );
  } else if (view === 'map') {
    content = (
      <Suspense fallback={<MapLoading />}>
        <DevicesMap query={filter} onShowTable={() => setView('table')} />
      </Suspense>
    );
  } else {
    content = (
      <DevicesTable
        total={total}
        at={list.at}
        onRangeChange={onRangeChange}
        resetKey={resetKey}
        highlight={term}
        initialOffset={state.scroll.table}
        onLeave={state.setTableScroll}
        columns={columns}
        sort={sorted ? sort : DEFAULT_SORT}
        onSort={onSort}
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
          all={narrowed ? (all?.complete === true ? all.total : undefined) : total}
          narrowed={narrowed}
        />
      </Group>
      <Group align="flex-end" wrap="wrap" gap="md">
        <ViewSwitch view={view} onChange={setView} />
        <TagFilter tag={tag} tags={all?.facet} onChange={setTag} />
        {view === 'table' ? (
          <ColumnChoice
            columns={columns}
            withGateway={gatewayCell !== undefined}
            onChange={setColumns}
          />
        ) : null}
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

/** Panel, table or map: a labelled radio group (arrow keys move the choice). */
function ViewSwitch({
  view,
  onChange,
}: {
  readonly view: DeviceView;
  readonly onChange: (view: DeviceView) => void;
}) {
  const { t } = useLingui();
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id="devices-view-label">
        <Trans>View</Trans>
      </Text>
      <SegmentedControl
        aria-labelledby="devices-view-label"
        value={view}
        onChange={(value) => onChange(value)}
        data={[
          { value: 'panel', label: t`Panel` },
          { value: 'table', label: t`Table` },
          { value: 'map', label: t`Map` },
        ]}
        data-testid="devices-view"
      />
    </Stack>
  );
}

/**
 * The tags the account's assets carry, each with how many do; the first option, every asset. A
 * native select: a keyboard and a screen reader know it, and it costs the page no code.
 */
function TagFilter({
  tag,
  tags,
  onChange,
}: {
  readonly tag: string | null;
  readonly tags: readonly { readonly value: string; readonly count: number }[] | undefined;
  readonly onChange: (tag: string | null) => void;
}) {
  const { t, i18n } = useLingui();
  const data = (tags ?? []).map(({ value, count }) => ({
    value,
    label: `${value} (${i18n.number(count)})`,
  }));
  // A chosen tag that no asset carries any more stays shown (and can be left).
  if (tag !== null && !data.some((d) => d.value === tag)) data.push({ value: tag, label: tag });
  const none = tags !== undefined && data.length === 0;
  return (
    <NativeSelect
      label={t`Tag`}
      data={[{ value: '', label: none ? t`No tags yet` : t`All tags` }, ...data]}
      value={tag ?? ''}
      onChange={(event) =>
        onChange(event.currentTarget.value === '' ? null : event.currentTarget.value)
      }
      disabled={none}
      w={220}
      data-testid="devices-tag"
    />
  );
}

/** Which optional columns the table shows: a checkbox each, the choice kept for good. */
function ColumnChoice({
  columns,
  withGateway,
  onChange,
}: {
  readonly columns: readonly DeviceColumn[];
  readonly withGateway: boolean;
  readonly onChange: (columns: readonly DeviceColumn[]) => void;
}) {
  const { t } = useLingui();
  const labels: Record<DeviceColumn, string> = {
    status: t`Status`,
    gateway: t`Gateway`,
    mac: t`MAC address`,
    tags: t`Tags`,
    description: t`Description`,
  };
  const offered = DEVICE_COLUMNS.filter((c) => withGateway || c !== 'gateway');
  return (
    <Popover position="bottom-start" shadow="md" trapFocus>
      <Popover.Target>
        <Button variant="default" data-testid="devices-columns">
          <Trans>Columns</Trans>
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Checkbox.Group
          label={t`Columns shown`}
          description={t`The name is always shown.`}
          value={[...columns]}
          onChange={(value) => onChange(value)}
        >
          <Stack gap="xs" mt="xs">
            {offered.map((c) => (
              <Checkbox key={c} value={c} label={labels[c]} />
            ))}
          </Stack>
        </Checkbox.Group>
      </Popover.Dropdown>
    </Popover>
  );
}

/** Nothing matches the search or the tag: it says which, and offers to show more. */
function NoMatch({
  term,
  tag,
  onClearSearch,
  onClearTag,
}: {
  readonly term: string;
  readonly tag: string | null;
  readonly onClearSearch: () => void;
  readonly onClearTag: () => void;
}) {
  const title =
    term !== '' ? (
      <Trans>No assets match “{term}”</Trans>
    ) : (
      <Trans>No assets carry the tag “{tag}”</Trans>
    );
  return (
    <EmptyState title={title}>
      {term !== '' ? (
        <Text c="dimmed" ta="center">
          <Trans>
            Check the spelling, or search for a part of a name, description or MAC address.
          </Trans>
        </Text>
      ) : null}
      {term !== '' && tag !== null ? (
        <Text c="dimmed" ta="center">
          <Trans>Only assets with the tag “{tag}” are searched.</Trans>
        </Text>
      ) : null}
      <Group justify="center">
        {term !== '' ? (
          <Button variant="light" onClick={onClearSearch}>
            <Trans>Clear search</Trans>
          </Button>
        ) : null}
        {tag !== null ? (
          <Button variant="light" onClick={onClearTag}>
            <Trans>Show all tags</Trans>
          </Button>
        ) : null}
      </Group>
    </EmptyState>
  );
}

function ViewLoading() {
  return (
    <div className={classes.mapLoading} role="status" aria-busy data-testid="devices-view-loading">
      <Trans>Loading the view…</Trans>
    </div>
  );
}

function MapLoading() {
  return (
    <div className={classes.mapLoading} role="status" aria-busy data-testid="devices-map-loading">
      <Trans>Loading the map…</Trans>
    </div>
  );
}

/**
 * "12 assets", or "3 of 12 assets" while searching or narrowed to a tag; announced politely as it
 * changes. Until the total is final (the account's first load streams in) it says so instead of
 * a count.
 */
function CountLine({
  total,
  all,
  narrowed,
}: {
  readonly total: number | undefined;
  readonly all: number | undefined;
  readonly narrowed: boolean;
}) {
  let text: ReactNode;
  if (total === undefined || all === undefined) {
    text = <Trans>Loading assets…</Trans>;
  } else if (narrowed) {
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
