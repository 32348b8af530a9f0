import type { DealersSearch } from '@dn/schema';
import { DEALER_EXPORT_COLUMNS, type DealerExportColumn, EXPORT_COLUMNS_REQUIRED, MONEY_WORDS } from '@dn/schema';
import { Button, Checkbox, Group, Popover, ScrollArea, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTrpc } from '../../shared/lib/trpc';
import { downloadFile } from '../shared/download';
import { ADMIN_MUTATIONS } from '../shared/mutations';
import { useAdminMutation } from '../shared/use-admin-mutation';
import { ALL, exportUrl, inListOrder } from './export-url';

/**
 * The column picker: the admin's remembered choice (every column until they choose). None is
 * a step towards picking a few: it is not saved, and Export waits for a column.
 */
function ColumnPicker({
  value,
  onChange,
}: {
  value: DealerExportColumn[];
  onChange: (v: DealerExportColumn[]) => void;
}) {
  return (
    <Popover position="bottom-end" shadow="md" withinPortal trapFocus>
      <Popover.Target>
        <Button variant="default" aria-label="Export columns">
          {MONEY_WORDS.exportColumns(value.length, ALL.length)}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs">
          <Group justify="space-between" gap="xs">
            <Text size="sm" fw={500}>
              Columns to export
            </Text>
            <Group gap={4}>
              <Button size="compact-xs" variant="subtle" onClick={() => onChange([])} disabled={value.length === 0}>
                None
              </Button>
              <Button
                size="compact-xs"
                variant="subtle"
                onClick={() => onChange(ALL)}
                disabled={value.length === ALL.length}
              >
                All
              </Button>
            </Group>
          </Group>
          <ScrollArea.Autosize mah={320} type="auto">
            <Checkbox.Group
              value={value}
              onChange={(v) => onChange(inListOrder(v))}
              error={value.length === 0 ? EXPORT_COLUMNS_REQUIRED : undefined}
              aria-label="Columns to export"
            >
              <Stack gap={6} pr="sm">
                {DEALER_EXPORT_COLUMNS.map((c) => (
                  <Checkbox key={c.key} value={c.key} label={c.label} />
                ))}
              </Stack>
            </Checkbox.Group>
          </ScrollArea.Autosize>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

/**
 * Downloads the CSV the server streams for the current view and the picked columns, keeping its
 * file name (dealers-export-yyyy-mm-dd.csv).
 */
export function ExportButton({ search }: { search: DealersSearch }) {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const saved = useQuery(trpc.admin.exportColumns.queryOptions());
  const [columns, setColumns] = useState<DealerExportColumn[] | null>(null);
  // The remembered choice arrives: the picker starts from it (unless the admin already picked).
  useEffect(() => {
    if (saved.data) setColumns((picked) => picked ?? inListOrder(saved.data.columns));
  }, [saved.data]);
  const save = useAdminMutation(ADMIN_MUTATIONS.saveExportColumns, {
    onSuccess: (data) => queryClient.setQueryData(trpc.admin.exportColumns.queryKey(), data),
    // One save at a time, in the order of the clicks: the last choice is the one remembered.
    scope: { id: 'export-columns' },
  });
  const [pending, setPending] = useState(false);
  const picked = columns ?? ALL;
  const download = async () => {
    setPending(true);
    try {
      const name = await downloadFile(
        exportUrl(search, picked),
        `dealers-export-${new Date().toISOString().slice(0, 10)}.csv`,
      );
      notifications.show({ title: 'Dealers exported', message: name, color: 'green' });
    } catch (err) {
      notifications.show({
        title: 'Failed to export dealers',
        message: err instanceof Error ? err.message : 'Please try again.',
        color: 'red',
      });
    } finally {
      setPending(false);
    }
  };
  return (
    <Group gap="xs">
      <ColumnPicker
        value={picked}
        onChange={(next) => {
          setColumns(next);
          if (next.length > 0) save.mutate({ columns: next });
        }}
      />
      <Button variant="default" onClick={download} loading={pending} disabled={saved.isLoading || picked.length === 0}>
        Export CSV
      </Button>
    </Group>
  );
}
