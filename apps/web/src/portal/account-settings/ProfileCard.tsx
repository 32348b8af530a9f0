import {
  CRM_NAMES,
  type DealerProfileInput,
  dealerProfileInput,
  fieldErrorsOf as schemaFieldErrors,
  wizardClientErrors,
} from '@dn/schema';
import { Button, Card, Checkbox, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { AddressFields } from '../../shared/components/AddressFields';
import { fieldErrorsOf, useTrpc } from '../../shared/lib/trpc';

type Values = Required<Omit<DealerProfileInput, 'addressJson'>> & {
  addressJson: { street: string; city: string; state: string; zipCode: string; country: string };
};

/** The dealer edits their own profile (issue 15): the wizard's rules and words; email and tier are the admin's. */
export function ProfileCard() {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const profile = useQuery(trpc.account.profile.queryOptions());
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: {
      companyName: '',
      phoneE164: '',
      addressJson: { street: '', city: '', state: '', zipCode: '', country: 'US' },
      logoUrl: '',
      crmName: '',
      inReferralPicker: true,
    },
    validate: (v) => {
      const r = dealerProfileInput.safeParse(v);
      return r.success ? {} : wizardClientErrors(schemaFieldErrors(r.error));
    },
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is filled once per loaded profile
  useEffect(() => {
    if (!profile.data) return;
    const p = profile.data;
    form.setValues({
      companyName: p.companyName,
      phoneE164: p.phoneE164,
      addressJson: { ...p.addressJson, country: p.addressJson.country || 'US' },
      logoUrl: p.logoUrl,
      crmName: p.crmName as Values['crmName'],
      inReferralPicker: p.inReferralPicker,
    });
    form.resetDirty();
  }, [profile.data]);
  const save = useMutation(
    trpc.account.updateProfile.mutationOptions({
      onSuccess: () => {
        notifications.show({ title: 'Profile saved', message: 'Your changes are saved.', color: 'green' });
        void queryClient.invalidateQueries(trpc.account.pathFilter());
      },
      onError: (error) => {
        const fields = fieldErrorsOf(error);
        if (fields) form.setErrors(fields);
        else notifications.show({ title: 'Could not save', message: error.message, color: 'red' });
      },
    }),
  );
  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="profile-title">
      <Title order={2} size="h3" id="profile-title">
        Your profile
      </Title>
      {profile.data && (
        <Text size="sm" c="dimmed" mt={4}>
          {profile.data.email} · {profile.data.tier} tier (ask us to change your email or tier)
        </Text>
      )}
      <form noValidate onSubmit={form.onSubmit((v) => save.mutate(v))}>
        <Stack gap="sm" mt="md">
          <TextInput label="Company name" autoComplete="organization" {...form.getInputProps('companyName')} />
          <TextInput label="Phone" type="tel" withAsterisk autoComplete="tel" {...form.getInputProps('phoneE164')} />
          <AddressFields inputProps={form.getInputProps} />
          <TextInput label="Logo link" type="url" placeholder="https://" {...form.getInputProps('logoUrl')} />
          <Select
            label="CRM"
            data={[...CRM_NAMES]}
            clearable
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('crmName')}
            onChange={(v) => form.setFieldValue('crmName', (v ?? '') as Values['crmName'])}
          />
          <Checkbox
            label="Applicants can find me in the referral picker"
            description="Off: people applying cannot pick you by name as their referrer (your referral link still works)"
            {...form.getInputProps('inReferralPicker', { type: 'checkbox' })}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending} disabled={!profile.data}>
              Save profile
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
