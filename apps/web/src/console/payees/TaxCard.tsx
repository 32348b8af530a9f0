import { displayMoney, PAYOUTS_CONSOLE_WORDS as W } from '@dn/schema';
import { Alert, Anchor, Button, Group, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTrpc } from '../../shared/lib/trpc';
import { downloadFile } from '../shared/download';
import { useAdminRole } from '../shared/role';

const THIS_YEAR = new Date().getFullYear();
const YEARS = Array.from({ length: 6 }, (_, i) => String(THIS_YEAR - i));

/**
 * The 1099-NEC (issue 47, item 4): a year's threshold (the law's, or an owner's) and its report.
 * Every admin sees the threshold; an owner sets it and downloads the report, which needs the
 * payment settings (the payer): without them the screen says so instead of a bare 409.
 */
export default function TaxCard() {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const { can } = useAdminRole();
  const owner = can('owner');
  const [year, setYear] = useState(String(THIS_YEAR));
  const [amount, setAmount] = useState('');
  const [downloading, setDownloading] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const threshold = useQuery(trpc.payees.threshold.queryOptions({ year: Number(year) }));
  const settings = useQuery({ ...trpc.payees.settings.queryOptions(), enabled: owner });
  useEffect(() => {
    if (threshold.data) setAmount(threshold.data.amount);
  }, [threshold.data]);
  const save = useMutation(
    trpc.payees.setThreshold.mutationOptions({
      onSuccess: (r) => {
        notifications.show({ title: W.thresholdSaved(r.year), message: displayMoney(r.amount), color: 'green' });
        void queryClient.invalidateQueries({ queryKey: trpc.payees.threshold.queryKey() });
      },
      onError: (e) => notifications.show({ title: W.thresholdFailed, message: e.message, color: 'red' }),
    }),
  );
  const noSettings = owner && settings.isSuccess && !settings.data;
  const download = async () => {
    setDownloading(true);
    setRefused(null);
    try {
      const name = await downloadFile(`/api/admin/tax/1099-nec?year=${year}`, `1099-nec-${year}.csv`);
      notifications.show({ title: '1099-NEC report downloaded', message: name, color: 'green' });
    } catch (e) {
      setRefused(e instanceof Error ? e.message : W.downloadFailed);
    } finally {
      setDownloading(false);
    }
  };
  return (
    <Paper withBorder p="md" data-testid="tax-card">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {W.taxTitle}
        </Title>
        <Text size="sm" c="dimmed">
          {W.taxIntro}
        </Text>
        <Group align="flex-end" gap="sm">
          <Select
            label="Tax year"
            data={YEARS}
            value={year}
            onChange={(v) => v && setYear(v)}
            allowDeselect={false}
            w={120}
          />
          {threshold.data && (
            <Text size="sm" pb={8} data-testid="tax-threshold">
              {W.threshold(threshold.data.year, displayMoney(threshold.data.amount), threshold.data.setByOwner)}
            </Text>
          )}
        </Group>
        {owner && (
          <Group align="flex-end" gap="sm">
            <TextInput
              label={`${year} threshold ($)`}
              inputMode="decimal"
              value={amount}
              onChange={(e) => setAmount(e.currentTarget.value)}
              w={180}
            />
            <Button
              variant="default"
              loading={save.isPending}
              onClick={() => save.mutate({ year: Number(year), amount })}
            >
              {W.saveThreshold}
            </Button>
          </Group>
        )}
        {noSettings && (
          <Alert color="yellow" data-testid="tax-needs-settings">
            {W.needsSettings} <Anchor href="#payment-settings">Payment settings</Anchor>
          </Alert>
        )}
        {refused && (
          <Alert
            color="red"
            title={W.downloadFailed}
            styles={{ title: { color: 'var(--mantine-color-text)' } }}
            data-testid="tax-refused"
          >
            {refused}
          </Alert>
        )}
        {owner && (
          <div>
            <Button onClick={download} loading={downloading} disabled={noSettings}>
              {W.download}
            </Button>
          </div>
        )}
      </Stack>
    </Paper>
  );
}
