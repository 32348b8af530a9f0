import '@mantine/dates/styles.css';
import {
  CALL_DURATION_MINUTES,
  CALL_TIME_ZONE,
  CALL_TIME_ZONE_LABEL,
  CALL_TIMES,
  CALL_WINDOWS,
  type ScheduleCallInput,
  scheduleCall,
  fieldErrorsOf as schemaFieldErrors,
  todayIn,
} from '@dn/schema';
import { Button, Center, Group, Loader, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useAfterFirstFrame } from '../../shared/lib/first-frame';
import { fieldErrorsOf, useTrpc } from '../../shared/lib/trpc';

export interface ScheduleCallDialogProps {
  opened: boolean;
  onClose: () => void;
  /** The caller's details when known (the application status page fills them in). */
  prefill?: { name: string; email: string; phone: string };
}

interface Values {
  name: string;
  email: string;
  phone: string;
  preferredDate: string | null;
  preferredTime: ScheduleCallInput['preferredTime'];
}

const empty: Values = { name: '', email: '', phone: '', preferredDate: null, preferredTime: 'morning' };
const toInput = (v: Values): ScheduleCallInput => ({ ...v, preferredDate: v.preferredDate ?? '' });
/** The shared schema's first message per field, as the server words it. */
function resolve(v: Values): Record<string, string> {
  const result = scheduleCall.safeParse(toInput(v));
  return result.success ? {} : schemaFieldErrors(result.error);
}

/** Schedule a Call (SPEC section 2); opened and closed by its parent, loaded lazily. */
export default function ScheduleCallDialog({ opened, onClose, prefill }: ScheduleCallDialogProps) {
  const trpc = useTrpc();
  // The dialog's frame with the click, its form the next frame (issue 36, decision 0992).
  const ready = useAfterFirstFrame();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { ...empty, ...prefill },
    validate: resolve,
  });
  const book = useMutation(
    trpc.site.scheduleCall.mutationOptions({
      onSuccess: () => {
        notifications.show({
          title: 'Call Scheduled!',
          message: 'You will receive a confirmation email shortly.',
          color: 'green',
        });
        form.reset();
        onClose();
      },
      onError: (error) => {
        notifications.show({
          title: 'Scheduling Failed',
          message: error.message || 'Please try again.',
          color: 'red',
        });
        const fields = fieldErrorsOf(error);
        if (fields) form.setErrors(fields);
      },
    }),
  );

  return (
    <Modal opened={opened} onClose={onClose} title="Schedule a Call" size="md">
      {!ready && (
        <Center mih={360}>
          <Loader size="sm" aria-label="Loading" />
        </Center>
      )}
      {ready && (
        <form noValidate onSubmit={form.onSubmit((v) => book.mutate(toInput(v)))}>
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              Book a free {CALL_DURATION_MINUTES}-minute call with our team. Times are {CALL_TIME_ZONE_LABEL}.
            </Text>
            <TextInput label="Full name" withAsterisk autoComplete="name" {...form.getInputProps('name')} />
            <TextInput label="Email" type="email" withAsterisk autoComplete="email" {...form.getInputProps('email')} />
            <TextInput label="Phone" type="tel" withAsterisk autoComplete="tel" {...form.getInputProps('phone')} />
            <DatePickerInput
              label="Preferred date"
              placeholder="Pick a date"
              withAsterisk
              minDate={todayIn(CALL_TIME_ZONE)}
              valueFormat="MMM D, YYYY"
              popoverProps={{ withinPortal: true }}
              {...form.getInputProps('preferredDate')}
            />
            <Select
              label="Preferred call time"
              withAsterisk
              allowDeselect={false}
              data={CALL_TIMES.map((t) => ({ value: t, label: `${CALL_WINDOWS[t].label} (${CALL_WINDOWS[t].range})` }))}
              comboboxProps={{ withinPortal: true }}
              {...form.getInputProps('preferredTime')}
            />
            <Group justify="flex-end" mt="sm">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" disabled={book.isPending}>
                {book.isPending ? 'Scheduling...' : 'Schedule Call'}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
