import { ADMIN_MESSAGES, type CsvRecord, plural, readCsvRecords } from '@dn/schema';
import { DataTable } from '@dn/ui';
import { Alert, Button, FileInput, Group, Progress, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ADMIN_MUTATIONS } from '../shared/mutations';
import { useAdminMutation } from '../shared/use-admin-mutation';
import { importChunks } from './import-chunks';

interface Rejected {
  line: number;
  orderId: string;
  reason: string;
}

const PREVIEW_ROWS = 5;

function reportCsv(rejected: Rejected[]): string {
  const cell = (v: string | number) => {
    const s = String(v).replace(/^[=+\-@\t\r]/, "'$&");
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return ['line,orderId,reason', ...rejected.map((r) => [r.line, r.orderId, r.reason].map(cell).join(','))].join(
    '\r\n',
  );
}

/** CSV import of orders: a preview of the first rows, a progress bar while chunks are sent, a report of rejected rows. */
export function ImportOrders() {
  const [file, setFile] = useState<{ name: string; header: CsvRecord; rows: CsvRecord[] } | null>(null);
  const [done, setDone] = useState(0);
  const [result, setResult] = useState<{ imported: number; skipped: number; rejected: Rejected[] } | null>(null);
  // Each chunk refreshes the orders and the ledger; a failed chunk says so and ends the run.
  const importChunk = useAdminMutation(ADMIN_MUTATIONS.importOrders);
  const [running, setRunning] = useState(false);

  const choose = async (f: File | null) => {
    setResult(null);
    setDone(0);
    if (!f) return setFile(null);
    const records = readCsvRecords(await f.text());
    const [header, ...rows] = records ?? [];
    if (!records || !header) {
      setFile(null);
      notifications.show({
        title: 'Cannot read this file',
        message: records ? 'The file is empty' : 'The CSV has a quoted field that never closes',
        color: 'red',
      });
      return;
    }
    setFile({ name: f.name, header, rows });
  };

  const run = async () => {
    if (!file) return;
    setRunning(true);
    const total = { imported: 0, skipped: 0, rejected: [] as Rejected[] };
    try {
      let sent = 0;
      for (const chunk of importChunks(file.header, file.rows)) {
        const r = await importChunk.mutateAsync({ csv: chunk.csv });
        total.imported += r.imported;
        total.skipped += r.skipped;
        // Rows of the file (the header is 1): the chunk's numbers count from its own header.
        total.rejected.push(...r.rejected.map((x) => ({ ...x, line: x.line + sent })));
        sent += chunk.rows;
        setDone(sent);
      }
      setResult(total);
      notifications.show({
        title: ADMIN_MESSAGES.importOrders.success,
        message: ADMIN_MESSAGES.importOrders.detail({ ...total, rejected: total.rejected.length }),
        color: 'green',
      });
    } catch {
      // useAdminMutation showed the failure.
    } finally {
      setRunning(false);
    }
  };

  const headerCells = file?.header.fields ?? [];
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        Columns: orderId, amount, orderedAt and one of dealerId, dealerEmail, externalCrmId (optional status). Rows
        already imported are skipped.
      </Text>
      <Group align="flex-end">
        <FileInput
          label="Orders CSV"
          accept=".csv,text/csv"
          placeholder="Choose a file"
          value={null}
          onChange={choose}
          w={280}
        />
        <Button disabled={!file || running || file.rows.length === 0} loading={running} onClick={run}>
          Import {file ? plural(file.rows.length, 'row') : ''}
        </Button>
      </Group>
      {file && (
        <DataTable
          data-testid="import-preview"
          // Preview rows have no identity but their place in the file.
          rows={file.rows.slice(0, PREVIEW_ROWS).map((r, line) => ({ line, fields: r.fields }))}
          rowKey={(r) => r.line}
          striped={false}
          cards
          empty="The file has no rows under its header."
          columns={headerCells.map((h, j) => ({ header: h, cell: (r: { fields: string[] }) => r.fields[j] }))}
        />
      )}
      {file && (running || done > 0) && (
        <Progress value={(100 * done) / Math.max(1, file.rows.length)} aria-label="Import progress" />
      )}
      {result && (
        <Alert color={result.rejected.length ? 'yellow' : 'green'} title="Import finished">
          {result.imported} imported, {result.skipped} skipped, {result.rejected.length} rejected.{' '}
          {result.rejected.length > 0 && (
            <Button
              size="xs"
              variant="light"
              component="a"
              download={`${file?.name.replace(/\.csv$/i, '') ?? 'orders'}-rejected.csv`}
              href={`data:text/csv;charset=utf-8,${encodeURIComponent(reportCsv(result.rejected))}`}
            >
              Download rejected rows
            </Button>
          )}
        </Alert>
      )}
    </Stack>
  );
}
