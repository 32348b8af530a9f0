import { dayLabel, displayMoney, formatWhen, ONBOARDING_STEP_LABELS } from '@dn/schema';
import { Accordion, Badge, Group, Paper, Progress, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTrpc } from '../../shared/lib/trpc';
import type { OnboardingStep, StepOf } from '../../shared/onboarding/types';
import { AgreementScreen } from './AgreementScreen';
import { CallScreen } from './CallScreen';
import { ComplianceScreen } from './ComplianceScreen';

/** `#onboarding-agreement` (the emails' links) opens that step. */
const stepFromHash = () => {
  const m = /^#onboarding-(\w+)$/.exec(typeof window === 'undefined' ? '' : window.location.hash);
  return m?.[1] ?? null;
};

function InventoryStatus({ step }: { step: StepOf<'initialInventory'> }) {
  return (
    <Stack gap={4} data-testid="inventory-status">
      <Text size="sm">
        Paid {displayMoney(step.paid)} of {displayMoney(step.required)} ({displayMoney(step.upfront)} due upfront).
      </Text>
      <Text size="sm" fw={step.done ? 500 : undefined}>
        {step.done ? 'Upfront payment received.' : `Due now: ${displayMoney(step.dueNow)}`}
        {step.remaining !== '0.00' ? ` Remaining in total: ${displayMoney(step.remaining)}.` : ''}
      </Text>
      <Text size="xs" c="dimmed">
        Our team records your payments; contact us for payment details.
      </Text>
    </Stack>
  );
}

function StepBody({ step, steps }: { step: OnboardingStep; steps: OnboardingStep[] }) {
  switch (step.key) {
    case 'agreement':
      return <AgreementScreen />;
    case 'onboardingCall':
      return <CallScreen step={step} />;
    case 'initialInventory':
      return <InventoryStatus step={step} />;
    default: {
      const insurance = steps.find((s): s is StepOf<'insurance'> => s.key === 'insurance');
      const license = steps.find((s): s is StepOf<'license'> => s.key === 'license');
      return insurance && license ? <ComplianceScreen insurance={insurance} license={license} /> : null;
    }
  }
}

/** A booked call is on its way, not a task left (issue 47): it completes when the call is held. */
const bookedCall = (s: OnboardingStep) =>
  s.key === 'onboardingCall' && !s.done && s.call?.status === 'booked' ? s.call : null;

const stepNote = (s: OnboardingStep): string | null => {
  const booked = bookedCall(s);
  if (booked) return `Booked for ${formatWhen(booked.startsAt, booked.timeZone)} — completes when the call is held`;
  if (s.key === 'onboardingCall' && !s.done && s.dueBy)
    return s.overdue ? `Overdue since ${dayLabel(s.dueBy)}` : `Due by ${dayLabel(s.dueBy)}`;
  if ((s.key === 'insurance' || s.key === 'license') && s.expired) return `Expired ${s.expiresOn}`;
  if ((s.key === 'insurance' || s.key === 'license') && !s.done && s.documents[0]?.status === 'rejected')
    return `${s.key === 'insurance' ? 'Insurance certificate' : 'Licence'} not accepted: see why below`;
  return null;
};

/** The onboarding checklist on the dashboard: a progress bar, the next step first (loaded lazily). */
export default function OnboardingCard() {
  const trpc = useTrpc();
  const onboarding = useQuery(trpc.onboarding.mine.queryOptions());
  const [open, setOpen] = useState<string | null>(stepFromHash());
  const steps = onboarding.data?.steps ?? [];
  const ordered = [...steps.filter((s) => !s.done), ...steps.filter((s) => s.done)];
  const next = ordered.find((s) => !s.done);
  useEffect(() => {
    if (open === null && next) setOpen(next.key === 'license' ? 'insurance' : next.key);
  }, [open, next]);
  if (onboarding.isLoading) return <Skeleton h={120} />;
  if (!onboarding.data) return null;
  // Insurance and licence share one form: shown once, under the first of the two.
  const shown = ordered.filter((s) => s.key !== 'license' || !ordered.some((o) => o.key === 'insurance'));
  const rowDone = (s: OnboardingStep) =>
    s.done && (s.key !== 'insurance' || (steps.find((o) => o.key === 'license')?.done ?? true));
  // The count is of the rows shown (issue 47: "0 of 5" over 4 rows).
  const done = shown.filter(rowDone).length;
  const percent = Math.round((done / Math.max(shown.length, 1)) * 100);

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="onboarding-title" data-testid="onboarding-card">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4" id="onboarding-title">
            {onboarding.data.complete ? 'Onboarding complete' : 'Your onboarding'}
          </Title>
          <Text size="sm" data-testid="onboarding-count">
            {done} of {shown.length} steps done
          </Text>
        </Group>
        <Progress value={percent} aria-label={`Onboarding ${percent}% complete`} data-testid="onboarding-progress" />
        {next && (
          <Text size="sm">
            Next: <b>{ONBOARDING_STEP_LABELS[next.key]}</b>
          </Text>
        )}
        <Accordion value={open} onChange={setOpen} variant="separated">
          {shown.map((s) => {
            const pair = s.key === 'insurance' ? steps.find((o) => o.key === 'license') : undefined;
            const allDone = rowDone(s);
            const note = stepNote(s) ?? (pair ? stepNote(pair) : null);
            const booked = bookedCall(s) !== null;
            return (
              <Accordion.Item key={s.key} value={s.key} data-testid={`step-${s.key}`}>
                <Accordion.Control>
                  <Group justify="space-between" wrap="nowrap" pr="xs">
                    <Stack gap={0}>
                      <Text fw={500}>
                        {s.key === 'insurance'
                          ? 'Insurance certificate and contractor licence'
                          : ONBOARDING_STEP_LABELS[s.key]}
                      </Text>
                      {note && (
                        <Text size="sm" c={booked ? 'blue.9' : 'red.9'}>
                          {note}
                        </Text>
                      )}
                    </Stack>
                    <Badge color={allDone ? 'green' : booked ? 'blue' : 'gray'} variant="light">
                      {allDone ? 'Done' : booked ? 'Booked' : 'To do'}
                    </Badge>
                  </Group>
                </Accordion.Control>
                <Accordion.Panel>
                  <StepBody step={s} steps={steps} />
                </Accordion.Panel>
              </Accordion.Item>
            );
          })}
        </Accordion>
      </Stack>
    </Paper>
  );
}
