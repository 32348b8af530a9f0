import { type ComplianceFormInput, complianceInput } from '@dn/schema';
import { Button, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSchemaForm } from '../../lib/form';
import { fieldErrorsOf, useTrpc } from '../../lib/trpc';
import type { StepOf } from './types';

const FIELDS: [keyof ComplianceFormInput, string, Record<string, unknown>?][] = [
  ['insuranceCertUrl', 'Insurance certificate (link or number)'],
  ['insurer', 'Insurer'],
  ['insuranceExpiresOn', 'Insurance expires on', { type: 'date' }],
  ['licenseNumber', 'Licence number'],
  ['licenseState', 'Licence state', { placeholder: 'TX', maxLength: 2 }],
  ['licenseExpiresOn', 'Licence expires on', { type: 'date' }],
];

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
          {FIELDS.map(([name, label, extra]) => (
            <TextInput key={form.key(name)} label={label} withAsterisk {...extra} {...form.getInputProps(name)} />
          ))}
        </SimpleGrid>
        <Button type="submit" loading={save.isPending}>
          Save insurance and licence
        </Button>
      </Stack>
    </form>
  );
}
