import { APPLICATION_STAGE_LABELS, type ApplicationStage, dayLabel } from '@dn/schema';
import { Alert, Button, Container, Paper, Stack, Stepper, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTrpc } from '../../shared/lib/trpc';
import { ScheduleCall } from '../schedule-call';

const STEP: Record<ApplicationStage, number> = { received: 0, under_review: 1, approved: 3, rejected: 3 };
const dateOf = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/**
 * The applicant's private status page (issue 15), opened from the link in the "application
 * received" email: where the application stands, what happens next and when, and Book a Call
 * prefilled with their details. A revoked or unknown link shows a plain "not found".
 */
export function StatusPage({ token }: { token: string }) {
  const trpc = useTrpc();
  const [booking, setBooking] = useState(false);
  const status = useQuery({
    ...trpc.site.applicationStatus.queryOptions({ token }),
    retry: (n, err) => n < 2 && (err as { data?: { httpStatus?: number } }).data?.httpStatus !== 404,
  });

  if (status.isPending) {
    return (
      <Container size="sm" py="xl">
        <Text>Loading your application…</Text>
      </Container>
    );
  }
  if (status.isError) {
    return (
      <Container size="sm" py="xl">
        <Title order={1}>Application status</Title>
        <Alert color="red" mt="md" title="Link not found" data-testid="status-not-found">
          {status.error.message}
        </Alert>
      </Container>
    );
  }
  const s = status.data;
  const stage = s.stage as ApplicationStage;
  return (
    <Container size="sm" py="xl">
      <Stack gap="lg">
        <div>
          <Title order={1}>Your dealer application</Title>
          <Text c="dimmed" mt={4}>
            {s.fullName}
            {s.companyName ? `, ${s.companyName}` : ''} · {s.tier} tier · submitted {dateOf(s.submittedAt)}
          </Text>
        </div>
        <Paper withBorder p="lg" radius="md">
          <Text size="sm" c="dimmed">
            Status
          </Text>
          <Title order={2} data-testid="application-stage">
            {APPLICATION_STAGE_LABELS[stage]}
          </Title>
          <Stepper active={STEP[stage]} mt="md" size="sm" orientation="vertical" aria-label="Application progress">
            <Stepper.Step label="Received" description={`Submitted ${dateOf(s.submittedAt)}`} />
            <Stepper.Step label="Under review" description={`Within ${s.reviewWithin}`} />
            <Stepper.Step
              label={stage === 'rejected' ? 'Rejected' : 'Approved'}
              description={stage === 'approved' ? `Onboarding call within ${s.onboardingCallWithin}` : undefined}
              color={stage === 'rejected' ? 'red' : undefined}
            />
          </Stepper>
        </Paper>
        {stage === 'rejected' && s.rejectionReason && (
          <Alert color="red" title="Reason given by our team" data-testid="rejection-reason">
            {s.rejectionReason}
          </Alert>
        )}
        <section aria-labelledby="next">
          <Title order={2} size="h3" id="next">
            What happens next
          </Title>
          <Text mt="xs">{s.nextStep}</Text>
          {s.decisionExpectedBy && (
            <Text mt="xs" fw={600} data-testid="decision-expected-by">
              Decision expected by {dayLabel(s.decisionExpectedBy)}.
            </Text>
          )}
          <Text mt="xs" size="sm" c="dimmed">
            We review applications within {s.reviewWithin}; approved dealers have their onboarding call within{' '}
            {s.onboardingCallWithin}.
          </Text>
        </section>
        <div>
          <Button onClick={() => setBooking(true)}>Book a Call</Button>
        </div>
      </Stack>
      <ScheduleCall opened={booking} onClose={() => setBooking(false)} prefill={s.booking} />
    </Container>
  );
}
