import {
  createContext,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { useLingui } from '@lingui/react/macro';
import { Badge, Group, Highlight, Skeleton, Text, UnstyledButton } from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type Row,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { LocalModel } from '@plant/sync-worker/api';
import type { ListRange } from '../../sync/hooks';
import type { DeviceColumn } from '../../state/preferences';
import { textOf } from './asset-texts';
import { assetStatusOf } from './asset-status-rule';
import { AssetStatusBadge } from './asset-status';
import { AlarmSeverityBadge, useAlarmSummary, worstOf } from '../alarms/alarm-summary';
import classes from './devices.module.css';
import { devicePaths } from './paths';

/** Rows have one fixed height: the scroll area's size is exact for any number of rows. */
export const ROW_HEIGHT = 44;
const OVERSCAN = 10;

type ColumnId = 'name' | DeviceColumn;

/** Grid tracks per column; the narrow layout shows name and status only. */
const TRACKS: Record<ColumnId, string> = {
  name: 'minmax(12rem, 2fr)',
  status: '8rem',
  gateway: 'minmax(8rem, 1.2fr)',
  mac: '10rem',
  tags: 'minmax(8rem, 1.5fr)',
  description: 'minmax(10rem, 3fr)',
};
const WIDE_ONLY: ReadonlySet<ColumnId> = new Set(['gateway', 'mac', 'tags', 'description']);

/** The columns the worker's query can order by (an attribute each; the gateway is an id). */
export const SORTABLE_COLUMNS = ['name', 'status', 'mac', 'description'] as const;
export type SortableColumn = (typeof SORTABLE_COLUMNS)[number];

/** The table's order: a column and a direction (by name, A to Z, unless the user chose). */
export interface DeviceSort {
  readonly column: SortableColumn;
  readonly direction: 'asc' | 'desc';
}
export const DEFAULT_SORT: DeviceSort = { column: 'name', direction: 'asc' };

function isSortable(id: string): id is SortableColumn {
  return (SORTABLE_COLUMNS as readonly string[]).includes(id);
}

interface TableRow {
  readonly index: number;
  readonly model: LocalModel<'asset'>;
}

/**
 * Whether the row a cell is in is the table's row in the tab order. A link in a cell other than
 * the name (which Enter on the row opens) is tabbable only in that row: Tab goes from the row to
 * its links, then out of the table, never through every rendered row's links.
 */
const RowInTabOrder = createContext(false);

/** For a cell's content: 0 in the row that is in the tab order, -1 in any other row. */
export function useCellTabIndex(): 0 | -1 {
  return useContext(RowInTabOrder) ? 0 : -1;
}

export interface DevicesTableProps extends ListWindowProps {
  readonly total: number;
  readonly at: (index: number) => LocalModel<'asset'> | undefined;
  /** The text the names are searched for, highlighted. */
  readonly highlight: string;
  /** The gateway column, when the user may see gateways. */
  readonly gatewayCell?: (gatewayId: string | null) => ReactNode;
  /** The optional columns shown, besides the name (the gateway also needs `gatewayCell`). */
  readonly columns: readonly DeviceColumn[];
  /** The order of the rows, and what a column header's button asks for. */
  readonly sort: DeviceSort;
  readonly onSort: (column: SortableColumn) => void;
}

/**
 * The assets as an accessible, virtualised table: only the rendered rows exist in the DOM (the
 * table says how many there are with aria-rowcount, each row its place with aria-rowindex). One
 * row at a time is in the tab order, and so are that row's links (the gateway); arrow keys, Page
 * Up/Down, Home and End move between rows (scrolling as needed), Enter on a row opens the asset.
 * The column headers that sort are buttons, reached with the arrow keys too (Up from the first
 * row, Left and Right between them, Down back to the rows), so the table stays one Tab stop.
 */
export function DevicesTable(props: DevicesTableProps) {
  const { total, at, highlight, gatewayCell, sort, onSort } = props;
  const shown = new Set<ColumnId>(['name', ...props.columns]);
  const { t } = useLingui();
  const navigate = useNavigate();
  const scrollRef = useRef<HTMLDivElement>(null);
  const height = useFillHeight(scrollRef);

  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    initialOffset: props.initialOffset,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? 0;
  const { offset, active, setActive } = useListWindow(virtualizer, { first, last }, props);
  // One live query of the account's alarms for every row (the worst raised one per asset).
  const { worstByAsset, raisedByAsset } = useAlarmSummary();

  const columns = useMemo<ColumnDef<TableRow>[]>(() => {
    const all: ColumnDef<TableRow>[] = [
      {
        id: 'name',
        header: t`Name`,
        cell: ({ row }) => (
          <Link
            to={devicePaths.details(row.original.model.id)}
            className={classes.nameLink}
            tabIndex={-1}
          >
            {/* A <bdi>: a name's bidirectional controls stay inside it. */}
            <Highlight component="bdi" inherit highlight={highlight}>
              {textOf(row.original.model.attributes, 'name')}
            </Highlight>
          </Link>
        ),
      },
      {
        id: 'status',
        header: t`Status`,
        cell: ({ row }) => {
          const { model } = row.original;
          return (
            <Group gap={4} wrap="nowrap">
              <AssetStatusBadge
                shown={assetStatusOf(model.attributes, raisedByAsset.get(model.id))}
              />
              <AlarmSeverityBadge severity={worstOf(worstByAsset, row.original.model)} size="xs" />
            </Group>
          );
        },
      },
      ...(gatewayCell === undefined
        ? []
        : [
            {
              id: 'gateway',
              header: t`Gateway`,
              cell: ({ row }: { row: Row<TableRow> }) => {
                const id = row.original.model.attributes.gateway_id;
                return gatewayCell(typeof id === 'string' ? id : null);
              },
            },
          ]),
      {
        id: 'mac',
        header: t`MAC address`,
        cell: ({ row }) => (
          <Text span inherit ff="monospace">
            {row.original.model.attributes.mac ?? ''}
          </Text>
        ),
      },
      {
        id: 'tags',
        header: t`Tags`,
        cell: ({ row }) => <TagList tags={row.original.model.attributes.tags} />,
      },
      {
        id: 'description',
        header: t`Description`,
        cell: ({ row }) => (
          <Text span inherit c="dimmed">
            {textOf(row.original.model.attributes, 'description')}
          </Text>
        ),
      },
    ];
    return all;
  }, [t, highlight, gatewayCell, worstByAsset, raisedByAsset]);
  const visibleColumns = useMemo(
    () => columns.filter((c) => shown.has(c.id as ColumnId)),
    // `shown` is made from `props.columns` on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [columns, props.columns],
  );

  const ids = visibleColumns.map((c) => c.id as ColumnId);
  const gridStyle = {
    '--device-columns': ids.map((id) => TRACKS[id]).join(' '),
    '--device-columns-narrow': ids
      .filter((id) => !WIDE_ONLY.has(id))
      .map((id) => TRACKS[id])
      .join(' '),
  } as CSSProperties;

  // Only the rendered rows go through the table model (a few dozen, whatever the total). The
  // data must keep its identity between renders: a new array is a new row model every time.
  const data = useMemo(
    () =>
      items.flatMap((item) => {
        const model = at(item.index);
        return model === undefined ? [] : [{ index: item.index, model }];
      }),
    [items, at],
  );
  const table = useReactTable({
    data,
    columns: visibleColumns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row) => row.model.id,
    // No paging, sorting or expanding in the table model: the worker's query does the list.
    autoResetAll: false,
  });
  const rowsByIndex = new Map(table.getRowModel().rows.map((r) => [r.original.index, r]));

  // Roving focus: one row is tabbable (the active one, or the first rendered one when the
  // active one is scrolled away); keys move it, scrolling it into view first.
  const activeIndex = Math.max(0, Math.min(active, total - 1));
  const tabbable = items.some((i) => i.index === activeIndex) ? activeIndex : first;
  const focusItem = useFocusWhenRendered(scrollRef, (index) => `tbody tr[data-index="${index}"]`);
  const moveTo = (index: number) => {
    const next = Math.max(0, Math.min(index, total - 1));
    setActive(next);
    focusItem(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };
  const open = (index: number) => {
    const model = at(index);
    if (model !== undefined) void navigate({ to: devicePaths.details(model.id) });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTableSectionElement>) => {
    const perPage = Math.max(
      1,
      Math.floor((scrollRef.current?.clientHeight ?? 0) / ROW_HEIGHT) - 1,
    );
    const keys: Record<string, () => void> = {
      ArrowDown: () => moveTo(activeIndex + 1),
      ArrowUp: () => moveTo(activeIndex - 1),
      PageDown: () => moveTo(activeIndex + perPage),
      PageUp: () => moveTo(activeIndex - perPage),
      Home: () => moveTo(0),
      End: () => moveTo(total - 1),
      Enter: () => open(activeIndex),
    };
    // Up from the first row: to the column headers' sort buttons.
    if (
      event.key === 'ArrowUp' &&
      activeIndex === 0 &&
      (event.target as HTMLElement).tagName === 'TR'
    ) {
      const button = headerButtons()[0];
      if (button !== undefined) {
        event.preventDefault();
        button.focus();
        return;
      }
    }
    const action = keys[event.key];
    if (action === undefined || event.altKey || event.metaKey) return;
    // Enter on a link in a row (the gateway) follows that link.
    if (event.key === 'Enter' && (event.target as HTMLElement).tagName !== 'TR') return;
    event.preventDefault();
    action();
  };
  const headerButtons = () =>
    Array.from(scrollRef.current?.querySelectorAll<HTMLElement>('thead [data-sort-column]') ?? []);
  const onHeaderKeyDown = (event: KeyboardEvent<HTMLTableSectionElement>) => {
    const buttons = headerButtons();
    const at = buttons.indexOf(event.target as HTMLElement);
    if (at < 0) return;
    const step: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1 };
    // In a right-to-left page the first column is on the right.
    const rtl = getComputedStyle(event.currentTarget).direction === 'rtl';
    if (event.key in step) {
      event.preventDefault();
      const next = at + (step[event.key] ?? 0) * (rtl ? -1 : 1);
      buttons[Math.max(0, Math.min(buttons.length - 1, next))]?.focus();
    } else if (event.key === 'ArrowDown') {
      event.preventDefault();
      moveTo(activeIndex);
    }
  };
  const onClick = (event: MouseEvent<HTMLTableRowElement>, index: number) => {
    setActive(index);
    // The name is a real link (new tab, copy address); a click elsewhere on the row opens too.
    if ((event.target as HTMLElement).closest('a') === null) open(index);
  };

  return (
    <div
      ref={scrollRef}
      className={classes.scroller}
      style={{ ...gridStyle, height }}
      onScroll={(event) => {
        offset.current = event.currentTarget.scrollTop;
      }}
      data-testid="devices-scroller"
    >
      <table
        className={classes.table}
        role="table"
        aria-label={t`Assets`}
        aria-rowcount={total + 1}
        data-testid="devices-table"
      >
        <thead className={classes.head} role="rowgroup" onKeyDown={onHeaderKeyDown}>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id} className={classes.row} role="row" aria-rowindex={1}>
              {group.headers.map((header) => {
                const id = header.column.id;
                const label = flexRender(header.column.columnDef.header, header.getContext());
                const sorted = sort.column === id ? sort.direction : undefined;
                return (
                  <th
                    key={header.id}
                    role="columnheader"
                    scope="col"
                    className={cellClass(id, classes.headCell)}
                    {...(sorted === undefined
                      ? {}
                      : { 'aria-sort': sorted === 'asc' ? 'ascending' : 'descending' })}
                  >
                    {isSortable(id) ? (
                      <UnstyledButton
                        className={classes.sortButton}
                        tabIndex={-1}
                        data-sort-column={id}
                        onClick={() => onSort(id)}
                      >
                        <Group gap={4} wrap="nowrap" component="span">
                          {label}
                          <SortMark direction={sorted} />
                        </Group>
                      </UnstyledButton>
                    ) : (
                      label
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody
          className={classes.body}
          role="rowgroup"
          style={{ height: virtualizer.getTotalSize() }}
          onKeyDown={onKeyDown}
        >
          {items.map((item) => {
            const row = rowsByIndex.get(item.index);
            const common = {
              'data-index': item.index,
              'aria-rowindex': item.index + 2,
              role: 'row',
              className: classes.row,
              tabIndex: item.index === tabbable ? 0 : -1,
              style: { height: ROW_HEIGHT, transform: `translateY(${item.start}px)` },
              onFocus: () => setActive(item.index),
            } as const;
            if (row === undefined) {
              return (
                <tr key={item.key} {...common} aria-busy data-testid="device-row-loading">
                  {ids.map((id) => (
                    <td key={id} role="cell" className={cellClass(id, classes.cell)}>
                      <Skeleton height={12} width={id === 'status' ? 56 : '70%'} />
                    </td>
                  ))}
                </tr>
              );
            }
            return (
              <tr
                key={item.key}
                {...common}
                data-testid="device-row"
                data-id={row.original.model.id}
                onClick={(event) => onClick(event, item.index)}
              >
                <RowInTabOrder.Provider value={item.index === tabbable}>
                  {row.getVisibleCells().map((cell) => (
                    <td
                      key={cell.id}
                      role="cell"
                      className={cellClass(cell.column.id, classes.cell)}
                    >
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </td>
                  ))}
                </RowInTabOrder.Provider>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** A column's order as an arrow (up: A to Z), a faint double arrow where it does not sort. */
function SortMark({ direction }: { readonly direction: 'asc' | 'desc' | undefined }) {
  const path =
    direction === undefined
      ? 'M4 6l4-4 4 4M4 10l4 4 4-4'
      : direction === 'asc'
        ? 'M4 10l4-4 4 4'
        : 'M4 6l4 4 4-4';
  return (
    <svg
      width="12"
      height="12"
      viewBox="0 0 16 16"
      aria-hidden
      className={direction === undefined ? classes.sortIdle : undefined}
    >
      <path d={path} fill="none" stroke="currentColor" strokeWidth="2" />
    </svg>
  );
}

/** An asset's tags as small badges (none: nothing). */
export function TagList({ tags }: { readonly tags: readonly string[] }) {
  if (tags.length === 0) return null;
  return (
    <Group gap={4} wrap="nowrap" component="span" className={classes.tags}>
      {tags.map((tag) => (
        <Badge key={tag} size="xs" variant="outline" color="gray" tt="none">
          {tag}
        </Badge>
      ))}
    </Group>
  );
}

function cellClass(id: string, base: string | undefined): string {
  return WIDE_ONLY.has(id as ColumnId) ? `${base ?? ''} ${classes.wide ?? ''}` : (base ?? '');
}

/** The list fills the window below its top edge (at least 320 px), following resizes. */
/** What the asset overview's virtualised views (table, panel) are given to keep their window. */
export interface ListWindowProps {
  /** Told which items are rendered (visible plus overscan), to ask the worker for just those. */
  readonly onRangeChange: (range: ListRange) => void;
  /** Changes with the search or filter: the list starts again at the top. */
  readonly resetKey: string;
  /** The scroll position to start at (kept from the last visit), and where it is handed back. */
  readonly initialOffset: number;
  readonly onLeave: (offset: number) => void;
}

/**
 * A virtualised view's window: the items it shows are told to the query (`onRangeChange`), its
 * scroll position (written to `offset` while scrolling: an unmounted element has none left to
 * read) is handed back when it unmounts, for when the user comes back from an asset's page; a
 * new search starts at the top, with the first item active (the roving focus).
 */
export function useListWindow(
  virtualizer: { scrollToOffset(offset: number): void },
  range: { readonly first: number; readonly last: number },
  props: ListWindowProps,
): { offset: { current: number }; active: number; setActive: (index: number) => void } {
  const { first, last } = range;
  const { onRangeChange, onLeave, resetKey } = props;
  useEffect(() => onRangeChange({ start: first, end: last }), [first, last, onRangeChange]);
  const offset = useRef(props.initialOffset);
  useEffect(() => () => onLeave(offset.current), [onLeave]);
  const [active, setActive] = useState(0);
  const firstKey = useRef(resetKey);
  useEffect(() => {
    if (firstKey.current === resetKey) return;
    firstKey.current = resetKey;
    virtualizer.scrollToOffset(0);
    setActive(0);
  }, [resetKey, virtualizer]);
  return { offset, active, setActive };
}

/**
 * Moves the focus to a virtualised list's item (roving focus): at once when it is rendered,
 * otherwise after the render that brings it in (the scroll to it). The wanted index is kept here,
 * not read from a render: on a busy machine a render made before the key press can run its
 * effects after it, and would focus the item that was active then (a CI run's Home after End
 * stayed on the last row).
 */
export function useFocusWhenRendered(
  scrollRef: RefObject<HTMLElement | null>,
  selector: (index: number) => string,
): (index: number) => void {
  const wanted = useRef<number | null>(null);
  const find = (index: number) =>
    scrollRef.current?.querySelector<HTMLElement>(selector(index)) ?? null;
  useEffect(() => {
    if (wanted.current === null) return;
    const item = find(wanted.current);
    if (item === null) return;
    wanted.current = null;
    item.focus({ preventScroll: true });
  });
  return (index: number) => {
    const item = find(index);
    wanted.current = item === null ? index : null;
    item?.focus({ preventScroll: true });
  };
}

export function useFillHeight(ref: RefObject<HTMLElement | null>): number {
  const [height, setHeight] = useState(480);
  useLayoutEffect(() => {
    const measure = () => {
      const top = ref.current?.getBoundingClientRect().top ?? 0;
      setHeight(Math.max(320, Math.floor(window.innerHeight - top - 16)));
    };
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [ref]);
  return height;
}
