import { ONBOARDING_MESSAGES, fieldErrorsOf as schemaFieldErrors, signAgreementInput } from '@dn/schema';
import { Alert, Anchor, Button, Checkbox, Paper, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { fieldErrorsOf, useTrpc } from '../../shared/lib/trpc';
import { AgreementText } from './AgreementText';
import classes from './onboarding.module.css';

/** Read the tier's agreement, type the full name, tick the box, sign; then download the signed PDF. */
export function AgreementScreen() {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const agreement = useQuery(trpc.onboarding.agreement.queryOptions());
  const [name, setName] = useState('');
  const [accept, setAccept] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const sign = useMutation(
    trpc.onboarding.signAgreement.mutationOptions({
      onSuccess: () => {
        notifications.show({
          color: 'green',
          title: 'Agreement signed',
          message: 'A PDF copy is on its way to your inbox.',
        });
        setErrors({});
        void queryClient.invalidateQueries({ queryKey: trpc.onboarding.pathKey() });
      },
      onError: (error) => {
        setErrors(fieldErrorsOf(error) ?? {});
        notifications.show({ color: 'red', title: 'Not signed', message: error.message });
        if (error.data?.code === 'CONFLICT')
          void queryClient.invalidateQueries({ queryKey: trpc.onboarding.agreement.queryKey() });
      },
    }),
  );
  if (agreement.isLoading) return <Skeleton h={200} />;
  if (!agreement.data)
    return <Alert color="red">{agreement.error?.message ?? 'The agreement could not be loaded.'}</Alert>;
  const a = agreement.data;
  const signedCurrent = a.signedVersion === a.version;

  const submit = () => {
    const input = { version: a.version, signatureName: name, accept };
    const parsed = signAgreementInput.safeParse(input);
    if (!parsed.success) {
      setErrors(schemaFieldErrors(parsed.error));
      return;
    }
    sign.mutate(parsed.data);
  };

  return (
    <Stack gap="sm" data-testid="agreement-screen">
      <Text size="sm" c="dimmed">
        {a.tier} Dealer Agreement, version {a.version}
      </Text>
      <Paper withBorder p="sm">
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (axe scrollable-region-focusable) */}
        <section className={classes.agreementText} aria-label="Agreement text" tabIndex={0}>
          <AgreementText text={a.text} />
        </section>
      </Paper>
      {a.signedVersion !== undefined && (
        <Text size="sm">
          You signed version {a.signedVersion}.{' '}
          <Anchor href="/api/dealer/agreement/pdf" data-testid="agreement-pdf">
            Download the signed PDF
          </Anchor>
        </Text>
      )}
      {signedCurrent ? (
        <Text fw={500}>You have signed the current version.</Text>
      ) : (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <Stack gap="sm">
            {a.signedVersion !== undefined && <Text fw={500}>{ONBOARDING_MESSAGES.agreementOutdated}</Text>}
            <TextInput
              label="Type your full name to sign"
              autoComplete="name"
              withAsterisk
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={errors.signatureName}
            />
            <Checkbox
              label="I have read and accept this agreement, and I sign it electronically."
              checked={accept}
              onChange={(e) => setAccept(e.currentTarget.checked)}
              error={errors.accept}
            />
            <Button type="submit" loading={sign.isPending}>
              Sign the agreement
            </Button>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
