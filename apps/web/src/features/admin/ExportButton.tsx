import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';

/** Downloads the CSV the server streams, keeping its file name (dealers-export-yyyy-mm-dd.csv). */
export function ExportButton() {
  const [pending, setPending] = useState(false);
  const download = async () => {
    setPending(true);
    try {
      const res = await fetch('/api/admin/dealers/export', { credentials: 'same-origin' });
      if (!res.ok) throw new Error(`${res.status}: ${(await res.text()) || res.statusText}`);
      const name =
        /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ??
        `dealers-export-${new Date().toISOString().slice(0, 10)}.csv`;
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = name;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
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
    <Button variant="default" onClick={download} loading={pending}>
      Export CSV
    </Button>
  );
}
