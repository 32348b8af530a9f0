import { displayDateTime, paymentSettingsInput, PAYOUTS_CONSOLE_WORDS as W } from '@dn/schema';
import { Alert, Button, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSchemaForm } from '../../shared/lib/form';
import { useTrpc } from '../../shared/lib/trpc';

const EMPTY = {
  companyName: '',
  companyId: '',
  originatingRouting: '',
  originatingBankName: '',
  payerName: '',
  payerTin: '',
  payerAddress: { street: '', city: '', state: '', zipCode: '' },
};

/**
 * The owner's payment settings (issue 47, item 4): the ACH originator of the NACHA bank file
 * (company name and id, originating bank) and the 1099 payer. Until saved, the bank file and the
 * 1099-NEC report are refused; the screen says so first.
 */
export default function PaymentSettingsCard() {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const settings = useQuery(trpc.payees.settings.queryOptions());
  const form = useSchemaForm(paymentSettingsInput, EMPTY);
  const { data } = settings;
  // Fill the form once the saved settings arrive (the form is uncontrolled).
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per saved version
  useEffect(() => {
    if (data) {
      const { updatedAt: _a, updatedBy: _b, ...values } = data;
      form.initialize(values);
    }
  }, [data?.updatedAt]);
  const save = useMutation(
    trpc.payees.setSettings.mutationOptions({
      onSuccess: (saved) => {
        notifications.show({ title: W.settingsSaved, message: saved?.companyName ?? '', color: 'green' });
        queryClient.setQueryData(trpc.payees.settings.queryKey(), saved);
      },
      onError: (e) => notifications.show({ title: W.settingsFailed, message: e.message, color: 'red' }),
    }),
  );
  return (
    <Paper withBorder p="md" id="payment-settings" data-testid="payment-settings">
      <form onSubmit={form.onSubmit((v) => save.mutate(v))} noValidate>
        <Stack gap="sm">
          <Title order={3} size="h4">
            {W.settingsTitle}
          </Title>
          <Text size="sm" c="dimmed">
            {W.settingsIntro}
          </Text>
          {settings.isSuccess && !data && (
            <Alert color="yellow" data-testid="payment-settings-missing">
              {W.settingsMissing}
            </Alert>
          )}
          {data && (
            <Text size="sm" data-testid="payment-settings-saved">
              {W.lastSaved(data.updatedBy, displayDateTime(data.updatedAt))}
            </Text>
          )}
          <Text fw={600} size="sm">
            NACHA bank file
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Company name"
              description="As the bank file shows it, at most 16 characters"
              withAsterisk
              key={form.key('companyName')}
              {...form.getInputProps('companyName')}
            />
            <TextInput
              label="Company id"
              description="10 characters, from your bank"
              withAsterisk
              key={form.key('companyId')}
              {...form.getInputProps('companyId')}
            />
            <TextInput
              label="Originating bank routing number"
              withAsterisk
              inputMode="numeric"
              key={form.key('originatingRouting')}
              {...form.getInputProps('originatingRouting')}
            />
            <TextInput
              label="Originating bank name"
              withAsterisk
              key={form.key('originatingBankName')}
              {...form.getInputProps('originatingBankName')}
            />
          </SimpleGrid>
          <Text fw={600} size="sm">
            1099 payer
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Payer name"
              withAsterisk
              key={form.key('payerName')}
              {...form.getInputProps('payerName')}
            />
            <TextInput
              label="Payer EIN"
              description="Like 12-3456789"
              withAsterisk
              key={form.key('payerTin')}
              {...form.getInputProps('payerTin')}
            />
          </SimpleGrid>
          <TextInput
            label="Payer street address"
            withAsterisk
            autoComplete="street-address"
            key={form.key('payerAddress.street')}
            {...form.getInputProps('payerAddress.street')}
          />
          <SimpleGrid cols={{ base: 1, xs: 3 }}>
            <TextInput
              label="City"
              withAsterisk
              key={form.key('payerAddress.city')}
              {...form.getInputProps('payerAddress.city')}
            />
            <TextInput
              label="State"
              withAsterisk
              key={form.key('payerAddress.state')}
              {...form.getInputProps('payerAddress.state')}
            />
            <TextInput
              label="ZIP code"
              withAsterisk
              key={form.key('payerAddress.zipCode')}
              {...form.getInputProps('payerAddress.zipCode')}
            />
          </SimpleGrid>
          <div>
            <Button type="submit" loading={save.isPending}>
              {W.save}
            </Button>
          </div>
        </Stack>
      </form>
    </Paper>
  );
}
