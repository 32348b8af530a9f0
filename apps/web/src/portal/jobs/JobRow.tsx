import {
  dayLabel,
  displayMoney,
  formatWhen,
  JOB_AMOUNT_REVIEW_NOTE,
  JOB_STATUS_LABELS,
  type JobStatus,
  jobWhat,
  JOB_CARD_WORDS as W,
} from '@dn/schema';
import { ConfirmModal } from '@dn/ui';
import { Badge, Button, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { browserZone, EmailLink, PhoneLink } from '../../shared/jobs/contact';
import classes from '../../shared/jobs/jobs.module.css';
import { useTrpc } from '../../shared/lib/trpc';

/** The seller's row while an offer is open: it waits on a named installer (issue 47), not on "finding" one. */
const AWAITING_ANSWER = 'Awaiting answer';

export interface DealerJob {
  id: string;
  status: JobStatus;
  role: 'installer' | 'seller';
  city: string;
  state: string;
  zipCode: string;
  atticSqFt: number | null;
  fans: number | null;
  amount: string | null;
  scheduledFor: string | null;
  installedAmount: string | null;
  amountReview?: string | null;
  createdAt: string;
  installer: { company: string; phone: string } | null;
  /** The seller's offered job: the installer it waits on and by when (issue 47). */
  offeredTo?: { company: string; answerBy: string } | null;
  homeowner: { fullName: string; email: string; phone: string; street: string } | null;
  notes?: string | null;
}

/**
 * One job on the dashboard (issue 47): the installer's with the homeowner's contact as tap-to-call and
 * tap-to-write links, Schedule, Installed and Cancel (which asks first), each with a toast; the
 * seller's with the homeowner, the amount, the installer and when.
 */
export function JobRow({
  job: j,
  highlight,
  onChanged,
}: {
  job: DealerJob;
  highlight: boolean;
  onChanged: () => void;
}) {
  const trpc = useTrpc();
  const [date, setDate] = useState('');
  const [amount, setAmount] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const [reason, setReason] = useState('');
  const ref = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    if (highlight) ref.current?.scrollIntoView({ block: 'center' });
  }, [highlight]);
  const setStatus = useMutation(
    trpc.jobs.setStatus.mutationOptions({
      onSuccess: (_r, input) => {
        const words =
          input.status === 'scheduled'
            ? { title: W.scheduled, message: W.scheduledMessage }
            : input.status === 'installed'
              ? { title: W.installed, message: W.installedMessage }
              : { title: W.cancelled, message: '' };
        notifications.show({ ...words, color: 'green' });
        setCancelling(false);
        onChanged();
      },
      onError: (error) => {
        notifications.show({ title: W.failed, message: error.message, color: 'red' });
        onChanged();
      },
    }),
  );
  const money = j.installedAmount ?? j.amount;
  const open = j.role === 'installer' && (j.status === 'accepted' || j.status === 'scheduled');
  return (
    <div
      ref={ref}
      className={highlight ? `${classes.offer} ${classes.focused}` : classes.offer}
      data-testid="job-row"
      data-highlighted={highlight || undefined}
    >
      <Stack gap={4}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={600}>
            {j.city}, {j.state} {j.zipCode}
          </Text>
          <Badge variant="light" className={classes.badge}>
            {j.offeredTo ? AWAITING_ANSWER : JOB_STATUS_LABELS[j.status]}
          </Badge>
        </Group>
        {j.homeowner && (
          <Text size="sm">
            {j.homeowner.fullName} · <PhoneLink phone={j.homeowner.phone} /> · <EmailLink email={j.homeowner.email} />
            {j.role === 'installer' ? ` · ${j.homeowner.street}` : ''}
          </Text>
        )}
        <Text size="sm" c="dimmed">
          {jobWhat(j)}
          {money ? ` · ${displayMoney(money)}` : ''}
        </Text>
        {j.notes && (
          <Text size="sm" className={classes.notes}>
            <Text span fw={600} size="sm">
              Homeowner's notes:{' '}
            </Text>
            {j.notes}
          </Text>
        )}
        {j.role === 'seller' && (
          <Text size="sm">
            {j.installer ? (
              <>
                Installer: {j.installer.company}, <PhoneLink phone={j.installer.phone} />
              </>
            ) : j.status === 'offered' && j.offeredTo ? (
              `Waiting for ${j.offeredTo.company} to answer by ${formatWhen(j.offeredTo.answerBy, browserZone())}`
            ) : j.status === 'offered' ? (
              'Offered to an installer near the homeowner'
            ) : j.status === 'unrouted' ? (
              'No installer in range yet: our team assigns one'
            ) : null}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          Registered {formatWhen(j.createdAt, browserZone())}
          {j.scheduledFor ? ` · Scheduled for ${dayLabel(j.scheduledFor)}` : ''}
        </Text>
        {j.amountReview === 'pending' && (
          <Text size="sm" c="blue.9" data-testid="job-amount-review">
            {JOB_AMOUNT_REVIEW_NOTE}
          </Text>
        )}
        {open && (
          <Stack gap={6} mt={6}>
            <Group gap="xs" align="flex-end">
              <TextInput
                size="xs"
                type="date"
                label="Date"
                value={date}
                onChange={(e) => setDate(e.currentTarget.value)}
              />
              <Button
                size="xs"
                disabled={!date}
                loading={setStatus.isPending && setStatus.variables?.status === 'scheduled'}
                onClick={() => setStatus.mutate({ id: j.id, status: 'scheduled', scheduledFor: date })}
              >
                Schedule
              </Button>
            </Group>
            <Group gap="xs" align="flex-end">
              <TextInput
                size="xs"
                label="Final amount ($)"
                inputMode="decimal"
                value={amount ?? j.amount ?? ''}
                onChange={(e) => setAmount(e.currentTarget.value)}
              />
              <Button
                size="xs"
                loading={setStatus.isPending && setStatus.variables?.status === 'installed'}
                onClick={() => {
                  const a = (amount ?? j.amount ?? '').trim();
                  setStatus.mutate({ id: j.id, status: 'installed', ...(a ? { amount: a } : {}) });
                }}
              >
                Installed
              </Button>
              <Button size="xs" variant="subtle" color="red" onClick={() => setCancelling(true)}>
                Cancel job…
              </Button>
            </Group>
          </Stack>
        )}
      </Stack>
      {cancelling && (
        <ConfirmModal
          title={W.cancelTitle}
          onClose={() => setCancelling(false)}
          confirmLabel={W.cancelConfirm}
          cancelLabel={W.keep}
          color="red"
          disabled={!reason.trim()}
          loading={setStatus.isPending}
          onConfirm={() => setStatus.mutate({ id: j.id, status: 'cancelled', reason: reason.trim() })}
        >
          <Text size="sm">
            {j.homeowner?.fullName ? `${j.homeowner.fullName}, ` : ''}
            {j.city}, {j.state}. {W.cancelBody}
          </Text>
          <Textarea
            label="Reason"
            withAsterisk
            autosize
            minRows={2}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
          />
        </ConfirmModal>
      )}
    </div>
  );
}
