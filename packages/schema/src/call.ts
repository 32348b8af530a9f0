import { z } from 'zod';
import { email, MAX_LONG_TEXT, phone, requiredText } from './common';
import { CALL_STATUSES, CALL_TIME_ZONE, CALL_TIMES } from './constants';

/** Today's date (yyyy-mm-dd) in a time zone. */
export function todayIn(timeZone: string, now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const isRealDate = (v: string) => {
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v);
};

export const scheduleCall = z.object({
  name: requiredText('Name is required', 120),
  email: email('Email required'),
  phone: phone(),
  preferredDate: z
    .string({ error: 'Preferred date is required' })
    .trim()
    .min(1, 'Preferred date is required')
    .max(10, 'Preferred date must be a date like 2026-12-01')
    .refine((v) => ISO_DATE.test(v) && isRealDate(v), 'Preferred date must be a date like 2026-12-01')
    .refine((v) => !ISO_DATE.test(v) || v >= todayIn(CALL_TIME_ZONE), 'Preferred date cannot be in the past'),
  preferredTime: z
    .enum(CALL_TIMES, { error: 'Preferred time must be morning, afternoon or evening' })
    .default('morning'),
  notes: z.string().trim().max(MAX_LONG_TEXT).optional(),
});
export type ScheduleCallInput = z.input<typeof scheduleCall>;
export type ScheduleCall = z.output<typeof scheduleCall>;

export const callStatus = z.enum(CALL_STATUSES, { error: 'Unknown call status' });
export const setCallStatus = z.object({ status: callStatus });
