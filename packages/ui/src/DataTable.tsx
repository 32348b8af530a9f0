import { Table, type TableTdProps } from '@mantine/core';
import type { Key, ReactNode } from 'react';

/** One column: its header (empty for an actions column) and how a row fills its cell. */
export interface DataColumn<T> {
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** Extra props of the cell, e.g. a `title` with the full value. */
  td?: (row: T) => TableTdProps;
}

export interface DataTableProps<T> {
  rows: readonly T[];
  columns: readonly DataColumn<T>[];
  rowKey: (row: T) => Key;
  /** `data-testid` of every body row. */
  rowTestId?: string;
  /** Scrolls sideways below this width (px) instead of squeezing the columns. */
  minWidth?: number;
  striped?: boolean;
  'data-testid'?: string;
  'aria-label'?: string;
}

/** A read-only table declared as columns: one header cell and one body cell per column. */
export function DataTable<T>({
  rows,
  columns,
  rowKey,
  rowTestId,
  minWidth,
  striped = true,
  'data-testid': testId,
  'aria-label': label,
}: DataTableProps<T>) {
  const table = (
    <Table striped={striped} data-testid={testId} aria-label={label}>
      <Table.Thead>
        <Table.Tr>
          {columns.map((c, i) => (
            // Columns are fixed for a table's life: their position is their identity.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <Table.Th key={i}>{c.header}</Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={rowKey(row)} data-testid={rowTestId}>
            {columns.map((c, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: see the header
              <Table.Td key={i} {...c.td?.(row)}>
                {c.cell(row)}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
  return minWidth ? <Table.ScrollContainer minWidth={minWidth}>{table}</Table.ScrollContainer> : table;
}
