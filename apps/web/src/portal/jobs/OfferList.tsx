import { formatWhen, jobWhat, JOB_CARD_WORDS as W } from '@dn/schema';
import { ConfirmModal } from '@dn/ui';
import { Alert, Button, Group, Radio, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { browserZone } from '../../shared/jobs/contact';
import classes from '../../shared/jobs/jobs.module.css';
import { useTrpc } from '../../shared/lib/trpc';

export interface Offer {
  id: string;
  city: string;
  state: string;
  zipCode: string;
  distanceMiles: number;
  expiresAt: string;
  atticSqFt: number | null;
  fans: number | null;
  notes: string | null;
}

function left(expiresAt: string, now: number) {
  const min = Math.max(0, Math.round((Date.parse(expiresAt) - now) / 60_000));
  return min >= 60 ? `${Math.floor(min / 60)} h ${min % 60} min left` : `${min} min left`;
}

/**
 * An installer's open offers (issue 47): what, where, how far, the homeowner's notes and the
 * deadline; Accept with a toast; Decline asks for a reason and confirms (decision 1062: no undo, the
 * job goes to the next installer at once). `focus` is the offer an emailed link opened.
 */
export function OfferList({
  offers,
  now,
  focus,
  loaded,
  onChanged,
  onAccepted,
}: {
  offers: Offer[];
  now: number;
  focus: string | undefined;
  loaded: boolean;
  onChanged: () => void;
  onAccepted: (jobId: string) => void;
}) {
  const trpc = useTrpc();
  const [declining, setDeclining] = useState<Offer | null>(null);
  // Offers answered here: the emailed one is then gone from the list, but not "no longer open".
  const [answered, setAnswered] = useState<string[]>([]);
  const failed = (error: { message: string }) => {
    notifications.show({ title: W.failed, message: error.message, color: 'red' });
    onChanged();
  };
  const accept = useMutation(
    trpc.jobs.accept.mutationOptions({
      onSuccess: (job, input) => {
        setAnswered((ids) => [...ids, input.id]);
        notifications.show({ title: W.accepted, message: W.acceptedMessage(job.homeowner.fullName), color: 'green' });
        onChanged();
        onAccepted(job.id);
      },
      onError: failed,
    }),
  );
  const focused = useRef<HTMLElement | null>(null);
  const focusFound = Boolean(focus && offers.some((o) => o.id === focus));
  useEffect(() => {
    if (!focusFound || !focused.current) return;
    focused.current.scrollIntoView({ block: 'center' });
    focused.current.focus({ preventScroll: true });
  }, [focusFound]);

  return (
    <Stack gap="xs">
      {focus && loaded && !focusFound && !answered.includes(focus) && (
        <Alert color="gray" data-testid="offer-gone">
          {W.gone}
        </Alert>
      )}
      {offers.length > 0 && (
        <Text fw={600} component="h3">
          Offers waiting for your answer
        </Text>
      )}
      {offers.map((o) => {
        const isFocus = o.id === focus;
        return (
          <article
            key={o.id}
            ref={isFocus ? focused : undefined}
            tabIndex={isFocus ? -1 : undefined}
            className={isFocus ? `${classes.offer} ${classes.focused}` : classes.offer}
            data-testid="job-offer"
            data-focused={isFocus || undefined}
            aria-label={`Job offer in ${o.city}, ${o.state}`}
          >
            <Stack gap={6}>
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Stack gap={0}>
                  <Text fw={600}>
                    {o.city}, {o.state} {o.zipCode}
                  </Text>
                  <Text size="sm">{jobWhat(o)}</Text>
                  <Text size="sm" c="dimmed">
                    {o.distanceMiles.toFixed(1)} miles from your service area's center
                  </Text>
                </Stack>
                <Stack gap={4}>
                  <Button
                    size="sm"
                    loading={accept.isPending && accept.variables?.id === o.id}
                    onClick={() => accept.mutate({ id: o.id })}
                  >
                    Accept
                  </Button>
                  <Button size="sm" variant="default" onClick={() => setDeclining(o)}>
                    Decline
                  </Button>
                </Stack>
              </Group>
              {o.notes && (
                <Text size="sm" className={classes.notes}>
                  <Text span fw={600} size="sm">
                    Homeowner's notes:{' '}
                  </Text>
                  {o.notes}
                </Text>
              )}
              <Text size="sm" fw={600}>
                Answer by {formatWhen(o.expiresAt, browserZone())} · {left(o.expiresAt, now)}
              </Text>
            </Stack>
          </article>
        );
      })}
      {declining && (
        <DeclineDialog
          offer={declining}
          onClose={() => setDeclining(null)}
          onDone={() => {
            setAnswered((ids) => [...ids, declining.id]);
            setDeclining(null);
            onChanged();
          }}
          onFailed={failed}
        />
      )}
    </Stack>
  );
}

function DeclineDialog({
  offer,
  onClose,
  onDone,
  onFailed,
}: {
  offer: Offer;
  onClose: () => void;
  onDone: () => void;
  onFailed: (e: { message: string }) => void;
}) {
  const trpc = useTrpc();
  const [choice, setChoice] = useState<string>('');
  const [other, setOther] = useState('');
  const reason = choice === 'Other' ? other.trim() : choice;
  const decline = useMutation(
    trpc.jobs.decline.mutationOptions({
      onSuccess: () => {
        notifications.show({ title: W.declined, message: W.declinedMessage, color: 'green' });
        onDone();
      },
      onError: onFailed,
    }),
  );
  return (
    <ConfirmModal
      title={W.declineTitle}
      onClose={onClose}
      confirmLabel={W.declineConfirm}
      color="red"
      disabled={!reason}
      loading={decline.isPending}
      onConfirm={() => decline.mutate({ id: offer.id, reason })}
    >
      <Text size="sm">
        {offer.city}, {offer.state} {offer.zipCode}. {W.declineBody}
      </Text>
      <Radio.Group label="Why are you declining?" withAsterisk value={choice} onChange={setChoice}>
        <Stack gap="xs" mt="xs">
          {[...W.declineReasons, 'Other'].map((r) => (
            <Radio key={r} value={r} label={r} />
          ))}
        </Stack>
      </Radio.Group>
      {choice === 'Other' && (
        <TextInput label="Your reason" withAsterisk value={other} onChange={(e) => setOther(e.currentTarget.value)} />
      )}
    </ConfirmModal>
  );
}
