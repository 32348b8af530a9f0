import { Button, Checkbox, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { emptySite, SiteFields, type SiteValues, siteInput } from '../../shared/jobs/HomeFields';
import { fieldErrorsOf, useTrpc } from '../../shared/lib/trpc';

interface Values extends SiteValues {
  homeowner: { fullName: string; email: string; phone: string };
  amount: string;
  handOff: boolean;
}

const SENT = {
  offered: 'Offered to an installer near the homeowner.',
  unrouted: 'No installer covers this ZIP yet: our team will assign one.',
  accepted: 'The job is yours to install: it is in your Jobs list.',
} as const;

/** Register a job a dealer sold: routed to the network, or installed by the seller (Authorized, Preferred). */
export default function RegisterJobForm({ installs, onDone }: { installs: boolean; onDone: (jobId: string) => void }) {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { homeowner: { fullName: '', email: '', phone: '' }, amount: '', handOff: false, ...emptySite },
  });
  const register = useMutation(
    trpc.jobs.register.mutationOptions({
      onSuccess: (r) => {
        notifications.show({
          title: 'Job registered',
          message: SENT[r.status as keyof typeof SENT] ?? '',
          color: 'green',
        });
        void queryClient.invalidateQueries({ queryKey: trpc.jobs.mine.queryKey() });
        form.reset();
        onDone(r.id);
      },
      onError: (error) => {
        const fields = fieldErrorsOf(error);
        if (fields) form.setErrors(fields);
        else notifications.show({ title: 'Not registered', message: error.message, color: 'red' });
      },
    }),
  );
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((v) =>
        register.mutate({
          homeowner: v.homeowner,
          ...siteInput(v),
          ...(v.amount.trim() ? { amount: v.amount } : {}),
          ...(installs ? { handOff: v.handOff } : {}),
        }),
      )}
    >
      <Stack gap="sm">
        <TextInput label="Homeowner name" withAsterisk {...form.getInputProps('homeowner.fullName')} />
        <TextInput label="Homeowner email" type="email" withAsterisk {...form.getInputProps('homeowner.email')} />
        <TextInput label="Homeowner phone" type="tel" withAsterisk {...form.getInputProps('homeowner.phone')} />
        <SiteFields form={form} />
        <TextInput
          label="Sale amount ($)"
          inputMode="decimal"
          placeholder="1500.00"
          {...form.getInputProps('amount')}
        />
        {installs && (
          <Checkbox
            label="Hand it to the network (another installer installs it)"
            {...form.getInputProps('handOff', { type: 'checkbox' })}
          />
        )}
        <Button type="submit" loading={register.isPending}>
          Register job
        </Button>
      </Stack>
    </form>
  );
}
