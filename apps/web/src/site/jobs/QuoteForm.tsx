import { Alert, Box, Button, Checkbox, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { emptySite, SiteFields, type SiteValues, siteInput } from '../../shared/jobs/HomeFields';
import classes from '../../shared/jobs/jobs.module.css';
import { recruiterFromCookie } from '../../shared/lib/referral';
import { fieldErrorsOf, useTrpc } from '../../shared/lib/trpc';

interface Values extends SiteValues {
  fullName: string;
  email: string;
  phone: string;
  consent: boolean;
  website: string;
}

/** "Get an installation quote": a homeowner's request, routed to a certified installer near them (issue 37). */
export function QuoteForm() {
  const trpc = useTrpc();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { fullName: '', email: '', phone: '', consent: false, website: '', ...emptySite },
  });
  const send = useMutation(
    trpc.jobs.requestQuote.mutationOptions({
      onError: (error) => {
        const fields = fieldErrorsOf(error);
        if (fields) form.setErrors(fields);
      },
    }),
  );
  // Issue 47: on a phone the form is long; its answer is brought into view and focused.
  const received = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    if (!send.isSuccess || !received.current) return;
    received.current.scrollIntoView({ block: 'center' });
    received.current.focus({ preventScroll: true });
  }, [send.isSuccess]);
  if (send.isSuccess) {
    return (
      <Alert
        ref={received}
        tabIndex={-1}
        color="green"
        title="Request received"
        data-testid="quote-received"
        role="status"
      >
        Thank you! We are finding a certified installer near you. We emailed you a private link to follow your request:
        it says by when an installer will answer, and the installer calls you to schedule the work.
      </Alert>
    );
  }
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((v) => {
        const recruiterId = recruiterFromCookie();
        send.mutate({
          fullName: v.fullName,
          email: v.email,
          phone: v.phone,
          ...siteInput(v),
          consent: v.consent as true,
          ...(v.website ? { website: v.website } : {}),
          ...(recruiterId ? { recruiterId } : {}),
        });
      })}
    >
      <Stack gap="sm">
        <Title order={1}>Get an installation quote</Title>
        <Text c="dimmed">
          Tell us about your home. A certified installer near you will call you with a quote for solar attic fans and
          attic insulation.
        </Text>
        <TextInput label="Full name" withAsterisk autoComplete="name" {...form.getInputProps('fullName')} />
        <TextInput label="Email" type="email" withAsterisk autoComplete="email" {...form.getInputProps('email')} />
        <TextInput label="Phone" type="tel" withAsterisk autoComplete="tel" {...form.getInputProps('phone')} />
        <SiteFields form={form} />
        {/* A field people never see: a bot that fills it is thanked and nothing is stored. */}
        <Box className={classes.honeypot} aria-hidden>
          <TextInput label="Website" tabIndex={-1} autoComplete="off" {...form.getInputProps('website')} />
        </Box>
        <Checkbox
          label="I agree to be contacted by phone and email about my installation"
          {...form.getInputProps('consent', { type: 'checkbox' })}
        />
        {send.isError && !fieldErrorsOf(send.error) && <Alert color="red">{send.error.message}</Alert>}
        <Button type="submit" loading={send.isPending}>
          Request my quote
        </Button>
      </Stack>
    </form>
  );
}
