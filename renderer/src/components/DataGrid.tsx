import { useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import {
  flexRender,
  getCoreRowModel,
  getFilteredRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type Row,
  type SortingState,
  type Table,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Group, Text, TextInput } from '@mantine/core';

interface DataGridProps<T> {
  rows: T[];
  columns: ColumnDef<T, unknown>[];
  height?: number;
  label: string;
  testId?: string;
  searchable?: boolean;
  toolbar?: ReactNode;
  initialSort?: SortingState;
  /** Rows become selectable (click, or Enter on a focused row), for a details panel next to the table. */
  onRowClick?: (row: T) => void;
  selected?: T | null;
}

const ROW_HEIGHT = 30;

/** A searchable, sortable table whose rows are virtualised, so 100,000 rows scroll smoothly. */
export function DataGrid<T>({
  rows,
  columns,
  height = 420,
  label,
  testId,
  searchable = true,
  toolbar,
  initialSort = [],
  onRowClick,
  selected = null,
}: DataGridProps<T>) {
  const [sorting, setSorting] = useState<SortingState>(initialSort);
  const [filter, setFilter] = useState('');
  const table = useReactTable({
    data: rows,
    columns,
    state: { sorting, globalFilter: filter },
    onSortingChange: setSorting,
    onGlobalFilterChange: setFilter,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    globalFilterFn: 'includesString',
  });
  const parent = useRef<HTMLDivElement>(null);
  const model = table.getRowModel().rows;
  const virtualizer = useVirtualizer({ count: model.length, getScrollElement: () => parent.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const items = virtualizer.getVirtualItems();
  const padTop = items[0]?.start ?? 0;
  const padBottom = virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0);
  const widths = useMemo(() => columns.map((c) => c.size ?? 150), [columns]);
  return (
    <div data-testid={testId}>
      <Group justify="space-between" mb="xs">
        {searchable ? (
          <TextInput placeholder="Search…" aria-label={`Search ${label}`} value={filter} onChange={(e) => setFilter(e.currentTarget.value)} w={260} size="xs" />
        ) : (
          <span />
        )}
        <Group gap="sm">
          {toolbar}
          <Text size="xs" c="dimmed" data-testid={testId ? `${testId}-count` : undefined}>
            {model.length.toLocaleString()} of {rows.length.toLocaleString()} rows
          </Text>
        </Group>
      </Group>
      <div ref={parent} className="tw-grid" style={{ height }} role="region" aria-label={label} tabIndex={0}>
        <table>
          <colgroup>
            {widths.map((w, i) => (
              <col key={i} style={{ width: w }} />
            ))}
          </colgroup>
          <GridHead table={table} />
          <tbody>
            {padTop > 0 && (
              <tr style={{ height: padTop }}>
                <td colSpan={columns.length} />
              </tr>
            )}
            {items.map((item) => {
              const row = model[item.index];
              return row ? <GridRow key={row.id} row={row} selected={row.original === selected} onRowClick={onRowClick} /> : null;
            })}
            {padBottom > 0 && (
              <tr style={{ height: padBottom }}>
                <td colSpan={columns.length} />
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** The column headers: each sorts the rows on a click, Enter or Space, and says how it sorts them. */
function GridHead<T>({ table }: { table: Table<T> }) {
  return (
    <thead>
      {table.getHeaderGroups().map((group) => (
        <tr key={group.id}>
          {group.headers.map((header) => {
            const sorted = header.column.getIsSorted();
            return (
              <th
                key={header.id}
                onClick={header.column.getToggleSortingHandler()}
                onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && header.column.toggleSorting()}
                tabIndex={0}
                aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'}
              >
                {flexRender(header.column.columnDef.header, header.getContext())}
                {sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ''}
              </th>
            );
          })}
        </tr>
      ))}
    </thead>
  );
}

/** One row in view; where rows are selectable, a click or Enter on it selects it. */
function GridRow<T>({ row, selected, onRowClick }: { row: Row<T>; selected: boolean; onRowClick: ((row: T) => void) | undefined }) {
  return (
    <tr
      style={{ height: ROW_HEIGHT, cursor: onRowClick ? 'pointer' : undefined }}
      className={selected ? 'tw-row-selected' : undefined}
      aria-selected={onRowClick ? selected : undefined}
      {...(onRowClick
        ? { tabIndex: 0, onClick: () => onRowClick(row.original), onKeyDown: (e: KeyboardEvent) => e.key === 'Enter' && onRowClick(row.original) }
        : {})}
    >
      {row.getVisibleCells().map((cell) => (
        <td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</td>
      ))}
    </tr>
  );
}
