import { useMemo, type ReactNode } from 'react';
import { Button, Table, VisuallyHidden, type TableProps, type TableTdProps } from '@mantine/core';
import { getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table';

/** One column of a {@link DataTable}. */
export interface DataColumn<R> {
  /** Stable among the table's columns (the key of its header and cells). */
  readonly id: string;
  /** The column header, a `<th scope="col">`. */
  readonly header: ReactNode;
  /** What the column shows for a row. */
  readonly cell: (row: R) => ReactNode;
  /**
   * The row's own name: its cell is a `<th scope="row">`, so a screen reader names the row with it
   * while it reads the other cells.
   */
  readonly rowHeader?: boolean;
  /** Style of the column's cells (font, wrapping). */
  readonly cellProps?: Pick<TableTdProps, 'style' | 'ff' | 'fw'>;
}

/** How the table is named for screen readers: a hidden caption, a label, or a heading's id. */
export type TableName =
  { readonly caption: string } | { readonly label: string } | { readonly labelledBy: string };

/** More rows on request: a button under the table, left out when there are no more. */
export interface TableMore {
  readonly label: ReactNode;
  readonly loading: boolean;
  readonly onMore: () => void;
}

/** What a row's `<tr>` carries for tests and styles (`data-testid`, `data-id`, …). */
export type RowData = Readonly<Record<`data-${string}`, string | undefined>>;

export interface DataTableProps<R> {
  /** The rows; undefined while they load (the table shows `loading`). */
  readonly rows: readonly R[] | undefined;
  /** The columns in order; `false` leaves one out (a column only some users or pages have). */
  readonly columns: readonly (DataColumn<R> | false)[];
  readonly rowKey: (row: R, index: number) => string;
  readonly rowData?: (row: R) => RowData;
  readonly name: TableName;
  /** Shown instead of the table when there are no rows. */
  readonly empty: ReactNode;
  /** Shown while the rows load; nothing unless given. */
  readonly loading?: ReactNode;
  /** Shown instead of everything else when the rows could not be read. */
  readonly error?: ReactNode;
  readonly more?: TableMore | null;
  /** The table scrolls sideways below this width (px). */
  readonly minWidth?: number;
  readonly testId?: string;
  readonly look?: Pick<TableProps, 'striped' | 'highlightOnHover' | 'verticalSpacing'>;
}

/**
 * Every list of the app that is a plain table (the devices' virtualised one excepted): one place
 * for the header row, the row headers, the table's name for screen readers, the empty, loading and
 * error states and the "more" button. TanStack Table keeps the columns and rows; the markup is
 * Mantine's, so a table reads like any other in the app.
 */
export function DataTable<R>(props: DataTableProps<R>) {
  const shown = props.columns.filter((c): c is DataColumn<R> => c !== false);
  // The cells are rendered from `shown`, never through flexRender: a page's cell functions are new
  // on every render, and flexRender would take each for a new component type and mount the cell
  // again (an open confirmation in a row would close).
  const columns: ColumnDef<R>[] = shown.map((c) => ({ id: c.id }));
  const byId = new Map(shown.map((c) => [c.id, c]));
  const data = useMemo(() => (props.rows === undefined ? [] : [...props.rows]), [props.rows]);
  const rowKey = props.rowKey;
  const table = useReactTable({
    data,
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row, index) => rowKey(row, index),
  });

  if (props.error !== undefined && props.error !== null) return <>{props.error}</>;
  if (props.rows === undefined) return <>{props.loading ?? null}</>;
  if (props.rows.length === 0) return <>{props.empty}</>;

  const name = props.name;
  const rendered = (
    <Table
      {...props.look}
      {...('label' in name ? { 'aria-label': name.label } : {})}
      {...('labelledBy' in name ? { 'aria-labelledby': name.labelledBy } : {})}
      data-testid={props.testId}
    >
      {'caption' in name ? (
        <Table.Caption>
          <VisuallyHidden>{name.caption}</VisuallyHidden>
        </Table.Caption>
      ) : null}
      <Table.Thead>
        {table.getHeaderGroups().map((group) => (
          <Table.Tr key={group.id}>
            {group.headers.map((header) => (
              <Table.Th key={header.id} scope="col">
                {byId.get(header.column.id)?.header}
              </Table.Th>
            ))}
          </Table.Tr>
        ))}
      </Table.Thead>
      <Table.Tbody>
        {table.getRowModel().rows.map((row) => (
          <Table.Tr key={row.id} {...props.rowData?.(row.original)}>
            {row.getVisibleCells().map((cell) => {
              const column = byId.get(cell.column.id);
              const content = column?.cell(row.original);
              return column?.rowHeader === true ? (
                <Table.Th key={cell.id} scope="row" {...column?.cellProps}>
                  {content}
                </Table.Th>
              ) : (
                <Table.Td key={cell.id} {...column?.cellProps}>
                  {content}
                </Table.Td>
              );
            })}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
  const more = props.more;
  return (
    <>
      {props.minWidth === undefined ? (
        rendered
      ) : (
        <Table.ScrollContainer minWidth={props.minWidth}>{rendered}</Table.ScrollContainer>
      )}
      {more === undefined || more === null ? null : (
        <Button variant="subtle" size="xs" loading={more.loading} onClick={more.onMore}>
          {more.label}
        </Button>
      )}
    </>
  );
}
