import {
  CALL_TIME_ZONE,
  dayLabel,
  displayMoney,
  formatWallTime,
  inventoryPaymentInput,
  ONBOARDING_STEP_LABELS,
  fieldErrorsOf as schemaFieldErrors,
  todayIn,
} from '@dn/schema';
import { Anchor, Badge, Button, Group, List, Paper, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { fieldErrorsOf, useTrpc } from '../../shared/lib/trpc';
import type { AdminOnboarding, OnboardingStep } from '../../shared/onboarding/types';
import { useAdminRole } from '../shared/role';
import { DocumentReview } from './ComplianceReview';

function stepDetail(s: OnboardingStep): string {
  switch (s.key) {
    case 'agreement':
      return s.signedVersion
        ? `Signed v${s.signedVersion} (current v${s.version})`
        : `Not signed (current v${s.version})`;
    case 'onboardingCall':
      return `${s.call ? `${s.call.status === 'no_show' ? 'No-show' : s.call.status === 'held' ? 'Held' : 'Booked'} ${formatWallTime(s.call.date, s.call.time, s.call.timeZone)}` : 'Not booked'}${s.dueBy ? ` · due by ${dayLabel(s.dueBy)}` : ''}${s.overdue ? ' · OVERDUE' : ''}`;
    case 'initialInventory':
      return `Paid ${displayMoney(s.paid)} of ${displayMoney(s.required)} · upfront ${displayMoney(s.upfront)} · due now ${displayMoney(s.dueNow)}`;
    default: {
      // insurance and license: only a verified document counts (issue 45)
      const waiting = s.documents.filter((d) => d.status === 'pending').length;
      const verified = s.expiresOn
        ? `Verified, expires ${s.expiresOn}${s.expired ? ' (EXPIRED)' : ''}`
        : 'Not verified';
      return `${verified}${waiting ? ` · ${waiting} waiting for review` : ''}`;
    }
  }
}

function PaymentForm({ dealerId }: { dealerId: string }) {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const [values, setValues] = useState({ amount: '', paidOn: todayIn(CALL_TIME_ZONE), reference: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const record = useMutation(
    trpc.onboarding.recordPayment.mutationOptions({
      onSuccess: (p) => {
        notifications.show({ color: 'green', title: 'Payment recorded', message: displayMoney(p.amount) });
        setValues((v) => ({ ...v, amount: '', reference: '' }));
        setErrors({});
        void queryClient.invalidateQueries({ queryKey: trpc.onboarding.dealer.queryKey({ id: dealerId }) });
      },
      onError: (error) => {
        setErrors(fieldErrorsOf(error) ?? {});
        notifications.show({ color: 'red', title: 'Not recorded', message: error.message });
      },
    }),
  );
  const field = (k: keyof typeof values) => ({
    value: values[k],
    error: errors[k],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
      const v = e.currentTarget.value;
      setValues((old) => ({ ...old, [k]: v }));
    },
  });
  return (
    <form
      noValidate
      data-testid="inventory-payment-form"
      onSubmit={(e) => {
        e.preventDefault();
        const parsed = inventoryPaymentInput.safeParse({ id: dealerId, ...values });
        if (!parsed.success) {
          setErrors(schemaFieldErrors(parsed.error));
          return;
        }
        record.mutate(parsed.data);
      }}
    >
      <Group align="flex-start" wrap="wrap">
        <TextInput label="Amount" placeholder="5000.00" inputMode="decimal" {...field('amount')} />
        <TextInput label="Paid on" type="date" {...field('paidOn')} />
        <TextInput label="Reference" placeholder="Wire 1234" {...field('reference')} />
        <Button type="submit" mt={24} loading={record.isPending}>
          Record payment
        </Button>
      </Group>
    </form>
  );
}

function Signatures({ d, dealerId }: { d: AdminOnboarding; dealerId: string }) {
  if (d.signatures.length === 0) return null;
  return (
    <List size="sm" spacing={2}>
      {d.signatures.map((s) => (
        <List.Item key={s.id}>
          v{s.version} signed by “{s.signatureName}” on {s.signedAt.slice(0, 10)}{' '}
          <Anchor href={`/api/admin/dealers/${dealerId}/agreement/pdf?signature=${s.id}`} size="sm">
            PDF
          </Anchor>
        </List.Item>
      ))}
    </List>
  );
}

/** The dealer detail view's onboarding section (issue 38), loaded lazily. */
export default function AdminOnboardingPanel({ dealerId }: { dealerId: string }) {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const { can } = useAdminRole();
  const q = useQuery(trpc.onboarding.dealer.queryOptions({ id: dealerId }));
  const mark = useMutation(
    trpc.onboarding.markCall.mutationOptions({
      onSuccess: () =>
        void queryClient.invalidateQueries({ queryKey: trpc.onboarding.dealer.queryKey({ id: dealerId }) }),
      onError: (error) => notifications.show({ color: 'red', title: 'Not saved', message: error.message }),
    }),
  );
  if (q.isLoading) return <Skeleton h={160} />;
  if (!q.data) return null;
  const d = q.data;
  const done = d.steps.filter((s) => s.done).length;
  const call = d.steps.find((s) => s.key === 'onboardingCall');
  return (
    <Paper withBorder p="md" component="section" aria-label="Onboarding" data-testid="admin-onboarding">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h4">
            Onboarding
          </Title>
          <Badge color={d.complete ? 'green' : 'yellow'} variant="light" data-testid="admin-onboarding-badge">
            {d.complete ? 'Complete' : `${done} of ${d.steps.length} steps`}
          </Badge>
        </Group>
        {d.steps.map((s) => (
          <Group key={s.key} gap="xs" wrap="nowrap" align="flex-start">
            <Badge color={s.done ? 'green' : 'gray'} variant="light" miw={56}>
              {s.done ? 'Done' : 'To do'}
            </Badge>
            <Stack gap={0}>
              <Text size="sm" fw={500}>
                {ONBOARDING_STEP_LABELS[s.key]}
              </Text>
              <Text size="sm" c="dimmed" data-testid={`admin-step-${s.key}`}>
                {stepDetail(s)}
              </Text>
            </Stack>
          </Group>
        ))}
        <Signatures d={d} dealerId={dealerId} />
        {d.steps.some((s) => (s.key === 'insurance' || s.key === 'license') && s.documents.length > 0) && (
          <Stack gap="xs" data-testid="admin-compliance-documents">
            <Text size="sm" fw={500}>
              Compliance documents
            </Text>
            {d.steps.flatMap((s) =>
              s.key === 'insurance' || s.key === 'license'
                ? s.documents.map((doc) => (
                    <DocumentReview
                      key={doc.id}
                      doc={{ ...doc, kind: s.key === 'insurance' ? 'insurance' : 'licence' }}
                      dealerId={dealerId}
                    />
                  ))
                : [],
            )}
          </Stack>
        )}
        {can('reviewer') && call?.key === 'onboardingCall' && call.call && !call.done && (
          <Group gap="xs">
            <Button
              size="xs"
              variant="light"
              loading={mark.isPending}
              onClick={() => mark.mutate({ id: dealerId, status: 'held' })}
            >
              Mark call held
            </Button>
            <Button
              size="xs"
              variant="default"
              loading={mark.isPending}
              onClick={() => mark.mutate({ id: dealerId, status: 'no_show' })}
            >
              Mark no-show
            </Button>
          </Group>
        )}
        {can('reviewer') && d.steps.some((s) => s.key === 'initialInventory') && <PaymentForm dealerId={dealerId} />}
      </Stack>
    </Paper>
  );
}
