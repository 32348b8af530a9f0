import {
  ACCOUNT_TYPES,
  displayDateTime,
  displayMoney,
  PAYEE_MESSAGES,
  payoutProfileInput,
  fieldErrorsOf as schemaFieldErrors,
  TAX_CLASSIFICATION_LABELS,
  TAX_CLASSIFICATIONS,
  W9_CERTIFICATION_TEXT,
} from '@dn/schema';
import {
  Alert,
  Anchor,
  Button,
  Card,
  Checkbox,
  Group,
  PasswordInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { fieldErrorsOf, useTrpc } from '../../shared/lib/trpc';

interface Values {
  legalName: string;
  taxClassification: string;
  tin: string;
  address: { street: string; city: string; state: string; zipCode: string };
  method: 'ach' | 'check';
  routingNumber: string;
  accountNumber: string;
  accountType: 'checking' | 'savings';
  signature: string;
  certify: boolean;
  /** Issue 45: asked for when the method, routing number or account changes. */
  currentPassword: string;
}

/** The details on file, as the portal sees them (last 4 digits of the account only). */
interface OnFile {
  method: 'ach' | 'check';
  routingNumber: string | null;
  accountLast4: string | null;
}

/**
 * Whether the form changes where payouts go (issue 45): the method, the routing number, or an
 * account number whose last 4 digits differ. The API decides for sure (it compares the whole
 * number); when it asks for the password anyway, the field appears with its message.
 */
function changesDestination(v: Values, onFile: OnFile | null) {
  if (!onFile) return false;
  if (v.method !== onFile.method) return true;
  if (v.method !== 'ach') return false;
  const digits = v.accountNumber.replace(/\D/g, '');
  return (
    v.routingNumber.replace(/\D/g, '') !== (onFile.routingNumber ?? '') || digits.slice(-4) !== onFile.accountLast4
  );
}

/** What the API receives: ACH fields only for direct deposit; the password only when given. */
function toInput(v: Values) {
  const ach = v.method === 'ach';
  return {
    legalName: v.legalName,
    taxClassification: v.taxClassification,
    tin: v.tin,
    address: v.address,
    method: v.method,
    ...(ach ? { routingNumber: v.routingNumber, accountNumber: v.accountNumber, accountType: v.accountType } : {}),
    signature: v.signature,
    certify: v.certify,
    ...(v.currentPassword ? { currentPassword: v.currentPassword } : {}),
  };
}

/**
 * The dealer's payout details and W-9 (issue 39), and their yearly statement. Loaded lazily from
 * the dashboard. Mobile first: one column, full-width inputs, at 390 px.
 */
export default function PayoutsCard() {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const profile = useQuery(trpc.payees.profile.queryOptions());
  const [editing, setEditing] = useState(false);
  const year = new Date().getFullYear();
  const statement = useQuery(trpc.payees.statement.queryOptions({ year }));
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: {
      legalName: '',
      taxClassification: 'individual',
      tin: '',
      address: { street: '', city: '', state: '', zipCode: '' },
      method: 'ach',
      routingNumber: '',
      accountNumber: '',
      accountType: 'checking',
      signature: '',
      certify: false,
      currentPassword: '',
    },
    validate: (v) => {
      const r = payoutProfileInput.safeParse(toInput(v));
      const errors: Record<string, string> = r.success ? {} : schemaFieldErrors(r.error);
      if (askPassword(v) && !v.currentPassword) errors.currentPassword = PAYEE_MESSAGES.currentPasswordRequired;
      return errors;
    },
  });
  // The API asked for it (a change the last 4 digits did not show): the field stays until saved.
  const [passwordAsked, setPasswordAsked] = useState(false);
  const onFile: OnFile | null = profile.data && 'legalName' in profile.data ? profile.data : null;
  function askPassword(v: Values) {
    return passwordAsked || changesDestination(v, onFile);
  }
  const save = useMutation(
    trpc.payees.saveProfile.mutationOptions({
      onSuccess: () => {
        notifications.show({ title: 'Payout details saved', message: 'Your W-9 is signed.', color: 'green' });
        setEditing(false);
        setPasswordAsked(false);
        form.reset();
        void queryClient.invalidateQueries(trpc.payees.pathFilter());
      },
      onError: (error) => {
        const fields = fieldErrorsOf(error);
        if (fields?.currentPassword) setPasswordAsked(true);
        if (fields) form.setErrors(fields);
        else notifications.show({ title: 'Could not save', message: error.message, color: 'red' });
      },
    }),
  );
  const p = profile.data;
  const hasProfile = p && 'legalName' in p;
  const showForm = editing || (profile.isSuccess && !hasProfile);
  return (
    <Card
      withBorder
      padding="lg"
      radius="md"
      component="section"
      aria-labelledby="payouts-title"
      data-testid="payouts-card"
    >
      <Title order={2} size="h3" id="payouts-title">
        Payout details and W-9
      </Title>
      {p && !p.complete && (
        <Alert color="yellow" mt="sm" data-testid="payouts-incomplete">
          We cannot pay your commissions yet: {p.reason}.
        </Alert>
      )}
      {p && 'payableFrom' in p && p.payableFrom && (
        <Alert color="blue" mt="sm" data-testid="payouts-new-details">
          Your payout details were changed: the new details are paid from {displayDateTime(p.payableFrom)}.
        </Alert>
      )}
      {hasProfile && !showForm && (
        <Stack gap={4} mt="sm" data-testid="payouts-summary">
          <Text>
            {p.legalName} · TIN ending {p.tinLast4}
          </Text>
          <Text size="sm" c="dimmed">
            {p.method === 'ach'
              ? `Direct deposit to ${p.accountType} account ending ${p.accountLast4} (routing ${p.routingNumber})`
              : `Paper check mailed to ${p.address.street}, ${p.address.city}`}
          </Text>
          <Text size="sm" c="dimmed">
            W-9 signed by {p.certifiedName} on {p.certifiedAt.slice(0, 10)}
          </Text>
          <Group mt="xs">
            <Button variant="light" onClick={() => setEditing(true)}>
              Update payout details
            </Button>
          </Group>
        </Stack>
      )}
      {showForm && (
        <form noValidate onSubmit={form.onSubmit((v) => save.mutate(toInput(v) as never))}>
          <Stack gap="sm" mt="md">
            <TextInput label="Legal name (as on your tax return)" withAsterisk {...form.getInputProps('legalName')} />
            <Select
              label="Federal tax classification"
              withAsterisk
              allowDeselect={false}
              data={TAX_CLASSIFICATIONS.map((c) => ({ value: c, label: TAX_CLASSIFICATION_LABELS[c] }))}
              {...form.getInputProps('taxClassification')}
            />
            <TextInput
              label="SSN or EIN"
              withAsterisk
              inputMode="numeric"
              autoComplete="off"
              placeholder="123-45-6789 or 12-3456789"
              {...form.getInputProps('tin')}
            />
            <TextInput
              label="Street address"
              withAsterisk
              autoComplete="street-address"
              {...form.getInputProps('address.street')}
            />
            <SimpleGrid cols={{ base: 1, xs: 3 }}>
              <TextInput
                label="City"
                withAsterisk
                autoComplete="address-level2"
                {...form.getInputProps('address.city')}
              />
              <TextInput
                label="State"
                withAsterisk
                autoComplete="address-level1"
                {...form.getInputProps('address.state')}
              />
              <TextInput
                label="ZIP code"
                withAsterisk
                autoComplete="postal-code"
                {...form.getInputProps('address.zipCode')}
              />
            </SimpleGrid>
            <Text size="sm" fw={500}>
              How should we pay you?
            </Text>
            <SegmentedControl
              fullWidth
              data={[
                { value: 'ach', label: 'Direct deposit' },
                { value: 'check', label: 'Paper check' },
              ]}
              {...form.getInputProps('method')}
            />
            {form.values.method === 'ach' && (
              <>
                <TextInput
                  label="Routing number"
                  withAsterisk
                  inputMode="numeric"
                  autoComplete="off"
                  {...form.getInputProps('routingNumber')}
                />
                <TextInput
                  label="Account number"
                  withAsterisk
                  inputMode="numeric"
                  autoComplete="off"
                  {...form.getInputProps('accountNumber')}
                />
                <Select
                  label="Account type"
                  allowDeselect={false}
                  data={ACCOUNT_TYPES.map((t) => ({ value: t, label: t === 'checking' ? 'Checking' : 'Savings' }))}
                  {...form.getInputProps('accountType')}
                />
              </>
            )}
            <Text size="xs" c="dimmed">
              {W9_CERTIFICATION_TEXT}
            </Text>
            <TextInput label="Signature: type your legal name" withAsterisk {...form.getInputProps('signature')} />
            <Checkbox
              label="I certify the statements above (W-9)"
              {...form.getInputProps('certify', { type: 'checkbox' })}
            />
            {askPassword(form.values) && (
              <PasswordInput
                label="Your current password"
                description="Needed to change where your payouts go. We email you about the change, and new details are paid from 3 days after it."
                withAsterisk
                autoComplete="current-password"
                data-testid="payouts-current-password"
                {...form.getInputProps('currentPassword')}
              />
            )}
            <Group>
              <Button type="submit" loading={save.isPending} fullWidth>
                Save and sign
              </Button>
              {editing && (
                <Button
                  variant="subtle"
                  onClick={() => {
                    setEditing(false);
                    setPasswordAsked(false);
                  }}
                  fullWidth
                >
                  Cancel
                </Button>
              )}
            </Group>
          </Stack>
        </form>
      )}
      <Stack gap={4} mt="lg" data-testid="statement">
        <Title order={3} size="h4">
          {year} statement
        </Title>
        {statement.data && statement.data.payments.length === 0 && (
          <Text size="sm" c="dimmed">
            {PAYEE_MESSAGES.noPayments}
          </Text>
        )}
        {statement.data?.payments.map((s) => (
          <Text size="sm" key={s.payoutId} data-testid="statement-line">
            {s.paidAt.slice(0, 10)} · {displayMoney(s.amount)}
            {s.reference ? ` · ${s.reference}` : ''}
          </Text>
        ))}
        {statement.data && statement.data.payments.length > 0 && (
          <Text size="sm" fw={600} data-testid="statement-total">
            Total paid in {year}: {displayMoney(statement.data.total)}
          </Text>
        )}
        <Anchor href={`/api/dealer/statement/download?year=${year}`} download size="sm">
          Download {year} statement (CSV)
        </Anchor>
      </Stack>
    </Card>
  );
}
