import {
  CALL_TIME_ZONE,
  CALL_TIME_ZONE_LABEL,
  CALL_TIMES,
  CALL_WINDOWS,
  type CallTime,
  dayLabel,
  todayIn,
} from '@dn/schema';
import { Alert, Button, Container, Group, NativeSelect, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { fieldErrorsOf, useTrpc } from '../../shared/lib/trpc';

const dayOf = (day: string) => dayLabel(day, 'long');
const windowOf = (t: CallTime) =>
  `${CALL_WINDOWS[t].label.toLowerCase()} (${CALL_WINDOWS[t].range} ${CALL_TIME_ZONE_LABEL})`;

/**
 * The free call reminder's link (issue 38): without signing in, the caller moves the call to another
 * date and window, or cancels it. The link works once; afterwards (or once the call's window has
 * started) the page says so.
 */
export default function CallLinkPage({ token }: { token: string }) {
  const trpc = useTrpc();
  const call = useQuery({
    ...trpc.site.callByLink.queryOptions({ token }),
    retry: false,
  });
  const [date, setDate] = useState('');
  const [time, setTime] = useState<CallTime>('morning');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [done, setDone] = useState<string | null>(null);
  const onError = (error: { message: string }) => {
    const fields = fieldErrorsOf(error);
    setErrors(fields ?? { form: error.message });
  };
  const reschedule = useMutation(
    trpc.site.rescheduleCallByLink.mutationOptions({
      onSuccess: (r) =>
        setDone(
          `Your call is moved to ${dayOf(r.preferredDate)}, ${windowOf(r.preferredTime)}. A new confirmation is on its way to your inbox.`,
        ),
      onError,
    }),
  );
  const cancel = useMutation(
    trpc.site.cancelCallByLink.mutationOptions({
      onSuccess: () => setDone('Your call is cancelled. You can book another one from our site at any time.'),
      onError,
    }),
  );
  const busy = reschedule.isPending || cancel.isPending;

  return (
    <Container size="sm" py="xl">
      <Stack gap="lg">
        <Title order={1}>Your call</Title>
        {done ? (
          <Alert color="green" title="Done" data-testid="call-link-done">
            {done}
          </Alert>
        ) : call.isPending ? (
          <Text>Loading your call…</Text>
        ) : call.isError ? (
          <Alert color="red" title="Link not usable" data-testid="call-link-error">
            {call.error.message}
          </Alert>
        ) : (
          <>
            <Paper withBorder p="lg" radius="md">
              <Text data-testid="call-link-when">
                {call.data.name}, we will call you on {dayOf(call.data.preferredDate)},{' '}
                {windowOf(call.data.preferredTime as CallTime)}.
              </Text>
            </Paper>
            {errors.form && (
              <Alert color="red" role="alert">
                {errors.form}
              </Alert>
            )}
            <form
              noValidate
              onSubmit={(e) => {
                e.preventDefault();
                setErrors({});
                reschedule.mutate({ token, preferredDate: date, preferredTime: time });
              }}
            >
              <Stack gap="sm">
                <Title order={2} size="h3">
                  Pick another time
                </Title>
                <TextInput
                  label="New date"
                  type="date"
                  min={todayIn(CALL_TIME_ZONE)}
                  value={date}
                  onChange={(e) => setDate(e.currentTarget.value)}
                  error={errors.preferredDate}
                  withAsterisk
                />
                <NativeSelect
                  label="Time window"
                  value={time}
                  onChange={(e) => setTime(e.currentTarget.value as CallTime)}
                  data={CALL_TIMES.map((t) => ({
                    value: t,
                    label: `${CALL_WINDOWS[t].label} (${CALL_WINDOWS[t].range})`,
                  }))}
                  error={errors.preferredTime}
                />
                <Group>
                  <Button type="submit" disabled={busy}>
                    Reschedule
                  </Button>
                  <Button color="red" variant="outline" disabled={busy} onClick={() => cancel.mutate({ token })}>
                    Cancel the call
                  </Button>
                </Group>
              </Stack>
            </form>
          </>
        )}
      </Stack>
    </Container>
  );
}
