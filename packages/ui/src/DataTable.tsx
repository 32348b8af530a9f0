import { Alert, Skeleton, Table, type TableProps, type TableTdProps, Text } from '@mantine/core';
import type { Key, ReactNode } from 'react';
import classes from './DataTable.module.css';

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
  /** `data-testid` of every body row (one for all, or each row's own). */
  rowTestId?: string | ((row: T) => string);
  /** Scrolls sideways below this width (px) instead of squeezing the columns. */
  minWidth?: number;
  striped?: boolean;
  /** Below 768 px every row is a card (no sideways scroll, every action on screen). */
  cards?: boolean;
  /** The query that fills it (TanStack Query's result): its first load and its failure, as below. */
  query?: { isLoading: boolean; error: { message: string } | null };
  /** The first load: a skeleton instead of the table. */
  loading?: boolean;
  /** A failed load: its message instead of the table (kept rows are still shown under it). */
  error?: { message: string } | null;
  /** What an empty table says (nothing: the table with its header only). */
  empty?: ReactNode;
  className?: string;
  verticalSpacing?: TableProps['verticalSpacing'];
  'data-testid'?: string;
  'aria-label'?: string;
}

/**
 * A table declared as columns: one header cell and one body cell per column, with the console's
 * one loading (skeleton), error (an alert with the server's words) and empty (a dimmed sentence) state.
 */
export function DataTable<T>({
  rows,
  columns,
  rowKey,
  rowTestId,
  minWidth,
  striped = true,
  cards = false,
  query,
  loading = query?.isLoading ?? false,
  error = query?.error,
  empty,
  className,
  verticalSpacing,
  'data-testid': testId,
  'aria-label': label,
}: DataTableProps<T>) {
  if (loading) return <Skeleton h={200} data-testid="table-loading" />;
  const failed = error ? (
    <Alert color="red" role="alert" title="Could not load this list">
      {error.message || 'Please try again.'}
    </Alert>
  ) : null;
  if (rows.length === 0 && (failed || empty !== undefined)) {
    return (
      failed ?? (
        <Text c="dimmed" ta="center" py="lg" data-testid={testId ? `${testId}-empty` : undefined}>
          {empty}
        </Text>
      )
    );
  }
  // A header in words labels its cells on a phone card.
  const labelOf = (c: DataColumn<T>) => (cards && typeof c.header === 'string' && c.header ? c.header : undefined);
  const table = (
    <Table
      striped={striped}
      data-testid={testId}
      aria-label={label}
      verticalSpacing={verticalSpacing}
      className={[cards ? classes.cards : '', className ?? ''].join(' ').trim() || undefined}
    >
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
          <Table.Tr key={rowKey(row)} data-testid={typeof rowTestId === 'function' ? rowTestId(row) : rowTestId}>
            {columns.map((c, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: see the header
              <Table.Td key={i} data-label={labelOf(c)} {...c.td?.(row)}>
                {c.cell(row)}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
  const body = minWidth ? (
    // A card layout needs no sideways scroll on a phone: the minimum width is the desktop's.
    <Table.ScrollContainer
      minWidth={minWidth}
      classNames={cards ? { scrollContainerInner: classes.cardsInner } : undefined}
    >
      {table}
    </Table.ScrollContainer>
  ) : (
    table
  );
  return failed ? (
    <>
      {failed}
      {body}
    </>
  ) : (
    body
  );
}
