import { dayLabel, formatWallTime } from '@dn/schema';
import { Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { fieldErrorsOf, useTrpc } from '../../shared/lib/trpc';
import type { StepOf } from '../../shared/onboarding/types';
import { CallForm } from './CallForm';

const STATUS_WORDS = { booked: 'Booked', held: 'Held', no_show: 'Missed' } as const;

/** Book (or rebook) the onboarding call from the portal. */
export function CallScreen({ step }: { step: StepOf<'onboardingCall'> }) {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const book = useMutation(
    trpc.onboarding.bookCall.mutationOptions({
      onSuccess: (r) => {
        setErrors({});
        notifications.show({ color: 'green', title: 'Onboarding call booked', message: `${r.date} at ${r.time}` });
        void queryClient.invalidateQueries({ queryKey: trpc.onboarding.mine.queryKey() });
      },
      onError: (error) => {
        setErrors(fieldErrorsOf(error) ?? {});
        notifications.show({ color: 'red', title: 'Not booked', message: error.message });
      },
    }),
  );
  const call = step.call;
  return (
    <Stack gap="sm" data-testid="call-screen">
      {call && (
        <Text size="sm" data-testid="call-booked">
          {STATUS_WORDS[call.status]}: {formatWallTime(call.date, call.time, call.timeZone)}
        </Text>
      )}
      {step.dueBy && (
        <Text size="sm" c={step.overdue ? 'red.9' : 'dimmed'}>
          Due by {dayLabel(step.dueBy)}
          {step.overdue ? ' (overdue)' : ''}
        </Text>
      )}
      {step.done ? (
        <Text fw={500}>Your onboarding call was held.</Text>
      ) : (
        <CallForm
          submitLabel={call ? 'Change the time' : 'Book the call'}
          pending={book.isPending}
          errors={errors}
          onSubmit={(slot) => book.mutate(slot)}
        />
      )}
    </Stack>
  );
}
