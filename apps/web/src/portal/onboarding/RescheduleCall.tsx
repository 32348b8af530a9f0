import { formatWallTime } from '@dn/schema';
import { Alert, Container, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { fieldErrorsOf, useTrpc } from '../../shared/lib/trpc';
import { CallForm } from './CallForm';

/** The emailed reschedule link's page (`/dashboard#reschedule=<token>`): works without signing in, once. */
export default function RescheduleCall({ token }: { token: string }) {
  const trpc = useTrpc();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const move = useMutation(
    trpc.onboarding.rescheduleCall.mutationOptions({
      onSuccess: () => setErrors({}),
      onError: (error) => setErrors(fieldErrorsOf(error) ?? {}),
    }),
  );
  return (
    <Container size="xs" py="xl">
      <Paper withBorder p="md">
        <Stack>
          <Title order={1} size="h3">
            Reschedule your onboarding call
          </Title>
          {move.data ? (
            <Text fw={500} data-testid="reschedule-done">
              Rescheduled: your call is now on {formatWallTime(move.data.date, move.data.time, move.data.timeZone)}. A
              confirmation is on its way.
            </Text>
          ) : (
            <>
              {move.error && !fieldErrorsOf(move.error) && <Alert color="red">{move.error.message}</Alert>}
              <CallForm
                submitLabel="Reschedule"
                pending={move.isPending}
                errors={errors}
                onSubmit={(slot) => move.mutate({ ...slot, token })}
              />
            </>
          )}
        </Stack>
      </Paper>
    </Container>
  );
}
