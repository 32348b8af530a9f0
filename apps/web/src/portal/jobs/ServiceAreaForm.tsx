import { Button, Checkbox, Group, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { fieldErrorsOf, useTrpc } from '../../shared/lib/trpc';

interface Values {
  zipCode: string;
  radiusMiles: number | string;
  weeklyCapacity: number | string;
  paused: boolean;
  pausedUntil: string;
}

/** An installer's service area: where they install, how many jobs a week, and a pause. */
export default function ServiceAreaForm({ onSaved }: { onSaved?: () => void }) {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const area = useQuery(trpc.jobs.serviceArea.queryOptions());
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { zipCode: '', radiusMiles: 50, weeklyCapacity: '', paused: false, pausedUntil: '' },
  });
  const a = area.data?.area;
  // biome-ignore lint/correctness/useExhaustiveDependencies: fill the form once the area arrives
  useEffect(() => {
    if (a)
      form.setValues({
        zipCode: a.zipCode,
        radiusMiles: a.radiusMiles,
        weeklyCapacity: a.weeklyCapacity,
        paused: a.paused,
        pausedUntil: a.pausedUntil ?? '',
      });
  }, [a?.zipCode, a?.radiusMiles, a?.weeklyCapacity, a?.paused, a?.pausedUntil]);
  const save = useMutation(
    trpc.jobs.saveServiceArea.mutationOptions({
      onSuccess: (r) => {
        notifications.show({ title: 'Service area saved', message: r.area.city ?? '', color: 'green' });
        queryClient.setQueryData(trpc.jobs.serviceArea.queryKey(), r);
        onSaved?.();
      },
      onError: (error) => {
        const fields = fieldErrorsOf(error);
        if (fields) form.setErrors(fields);
        else notifications.show({ title: 'Not saved', message: error.message, color: 'red' });
      },
    }),
  );
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((v) =>
        save.mutate({
          zipCode: v.zipCode,
          radiusMiles: Number(v.radiusMiles),
          ...(v.weeklyCapacity === '' ? {} : { weeklyCapacity: Number(v.weeklyCapacity) }),
          paused: v.paused,
          pausedUntil: v.pausedUntil || null,
        }),
      )}
    >
      <Stack gap="sm">
        {!a && !area.isPending && (
          <Text size="sm" c="dimmed">
            Set your service area to receive job offers.
          </Text>
        )}
        <Group grow align="flex-start">
          <TextInput label="Home ZIP code" inputMode="numeric" withAsterisk {...form.getInputProps('zipCode')} />
          <NumberInput label="Radius (miles)" min={5} max={200} {...form.getInputProps('radiusMiles')} />
        </Group>
        <NumberInput label="Jobs you can take a week" min={1} max={500} {...form.getInputProps('weeklyCapacity')} />
        <Checkbox label="Not taking work for now" {...form.getInputProps('paused', { type: 'checkbox' })} />
        <TextInput label="Paused until (optional)" type="date" {...form.getInputProps('pausedUntil')} />
        <Button type="submit" loading={save.isPending}>
          Save service area
        </Button>
      </Stack>
    </form>
  );
}
