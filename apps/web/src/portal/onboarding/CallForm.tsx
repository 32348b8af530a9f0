import '@mantine/dates/styles.css';
import { CALL_TIME_ZONE, CALL_TIME_ZONE_LABEL, CALL_WINDOWS, todayIn } from '@dn/schema';
import { Button, Select, Stack, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useState } from 'react';

/** The free call's calendar: quarter hours from 9 AM to 7:45 PM Eastern. */
const TIMES = Array.from({ length: (CALL_WINDOWS.evening.endHour - CALL_WINDOWS.morning.startHour) * 4 }, (_, i) => {
  const h = CALL_WINDOWS.morning.startHour + Math.floor(i / 4);
  const m = (i % 4) * 15;
  const value = `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
  const label = `${((h + 11) % 12) + 1}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
  return { value, label };
});

const weekend = (d: string) => {
  const day = new Date(`${d}T00:00:00Z`).getUTCDay();
  return day === 0 || day === 6;
};

export interface CallSlot {
  date: string;
  time: string;
  timeZone: string;
}

/** Pick a business day and a time; the server checks holidays and answers with the field it refuses. */
export function CallForm(props: {
  submitLabel: string;
  pending: boolean;
  errors: Record<string, string>;
  onSubmit: (slot: CallSlot) => void;
}) {
  const [date, setDate] = useState<string | null>(null);
  const [time, setTime] = useState<string | null>('10:00');
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit({ date: date ?? '', time: time ?? '', timeZone: CALL_TIME_ZONE });
      }}
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Times are {CALL_TIME_ZONE_LABEL}, Monday to Friday except federal holidays.
        </Text>
        <DatePickerInput
          label="Date"
          placeholder="Pick a date"
          withAsterisk
          minDate={todayIn(CALL_TIME_ZONE)}
          excludeDate={(d) => weekend(String(d).slice(0, 10))}
          valueFormat="MMM D, YYYY"
          value={date}
          onChange={(v) => setDate(v ? String(v).slice(0, 10) : null)}
          error={props.errors.date}
          popoverProps={{ withinPortal: true }}
          ariaLabels={{ nextMonth: 'Next month', previousMonth: 'Previous month' }}
        />
        <Select
          label="Time"
          withAsterisk
          allowDeselect={false}
          data={TIMES}
          value={time}
          onChange={setTime}
          error={props.errors.time ?? props.errors.timeZone}
          comboboxProps={{ withinPortal: true }}
        />
        <Button type="submit" loading={props.pending}>
          {props.submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
