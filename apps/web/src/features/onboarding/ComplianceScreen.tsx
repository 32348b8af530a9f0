import { complianceInput } from '@dn/schema';
import { Button, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSchemaForm } from '../../lib/form';
import { fieldErrorsOf, useTrpc } from '../../lib/trpc';
import type { StepOf } from './types';

/** The insurance certificate and contractor licence, with their expiry dates. */
export function ComplianceScreen({
  insurance,
  license,
}: {
  insurance: StepOf<'insurance'>;
  license: StepOf<'license'>;
}) {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const form = useSchemaForm(complianceInput, {
    insuranceCertUrl: insurance.insuranceCertUrl ?? '',
    insurer: insurance.insurer ?? '',
    insuranceExpiresOn: insurance.expiresOn ?? '',
    licenseNumber: license.licenseNumber ?? '',
    licenseState: license.licenseState ?? '',
    licenseExpiresOn: license.expiresOn ?? '',
  });
  const save = useMutation(
    trpc.onboarding.saveCompliance.mutationOptions({
      onSuccess: () => {
        notifications.show({ color: 'green', title: 'Saved', message: 'Your insurance and licence are on file.' });
        void queryClient.invalidateQueries({ queryKey: trpc.onboarding.mine.queryKey() });
      },
      onError: (error) => {
        const fields = fieldErrorsOf(error);
        if (fields) form.setErrors(fields);
        notifications.show({ color: 'red', title: 'Not saved', message: error.message });
      },
    }),
  );
  return (
    <form
      noValidate
      onSubmit={form.onSubmit(() => save.mutate(complianceInput.parse(form.getValues())))}
      data-testid="compliance-screen"
    >
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Insurance certificate (link or number)"
            withAsterisk
            key={form.key('insuranceCertUrl')}
            {...form.getInputProps('insuranceCertUrl')}
          />
          <TextInput label="Insurer" withAsterisk key={form.key('insurer')} {...form.getInputProps('insurer')} />
          <TextInput
            label="Insurance expires on"
            type="date"
            withAsterisk
            key={form.key('insuranceExpiresOn')}
            {...form.getInputProps('insuranceExpiresOn')}
          />
          <TextInput
            label="Licence number"
            withAsterisk
            key={form.key('licenseNumber')}
            {...form.getInputProps('licenseNumber')}
          />
          <TextInput
            label="Licence state"
            placeholder="TX"
            maxLength={2}
            withAsterisk
            key={form.key('licenseState')}
            {...form.getInputProps('licenseState')}
          />
          <TextInput
            label="Licence expires on"
            type="date"
            withAsterisk
            key={form.key('licenseExpiresOn')}
            {...form.getInputProps('licenseExpiresOn')}
          />
        </SimpleGrid>
        <Button type="submit" loading={save.isPending}>
          Save insurance and licence
        </Button>
      </Stack>
    </form>
  );
}
