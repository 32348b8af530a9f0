import {
  dealerApplication,
  fieldErrorsOf as schemaFieldErrors,
  WIZARD_CLOSE_DELAY_MS,
  WIZARD_LEAVE,
  WIZARD_STEPS,
  wizardClientErrors,
} from '@dn/schema';
import { Alert, Button, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { clearRecruiterCookie, currentRecruiterId, trackReferredSignup } from '../../shared/lib/referral';
import { fieldErrorsOf, useTrpc } from '../../shared/lib/trpc';
import { clearDraft, loadDraft, saveDraft } from './draft';
import { initialValues, STEP_COUNT, stepOfField, toApplication, type WizardValues } from './form';
import { BasicInfoStep, BusinessStep, SalesStep, TierStep } from './Steps1to3';
import { AgreementsStep, FocusStep, ReviewStep } from './Steps4to7';
import classes from './wizard.module.css';

export interface RegistrationWizardProps {
  /** Called 2 s after a successful application (the caller closes its modal or switches tabs). */
  onDone?: () => void;
  /** Cancel on step 1; without it no Cancel button shows. */
  onCancel?: () => void;
}

/**
 * The shared schema's first message per field (zod4Resolver keeps the last), in the wizard's
 * words where SPEC section 5 gives the client shorter ones ('Street required').
 */
function resolve(values: WizardValues): Record<string, string> {
  const result = dealerApplication.safeParse(toApplication(values));
  return result.success ? {} : wizardClientErrors(schemaFieldErrors(result.error));
}
const STEPS = [TierStep, BasicInfoStep, BusinessStep, SalesStep, FocusStep, AgreementsStep, ReviewStep];

/** The 7-step dealer application (SPEC section 2): Next checks only the step's own fields. */
export function RegistrationWizard({ onDone, onCancel }: RegistrationWizardProps) {
  const trpc = useTrpc();
  // A draft left in this browser comes back where it was (issue 36); the referral cookie wins.
  const [draft] = useState(loadDraft);
  const [step, setStep] = useState(() => Math.min(draft?.step ?? 0, STEP_COUNT - 1));
  const [done, setDone] = useState(false);
  const stepRef = useRef(step);
  stepRef.current = step;
  const form = useForm<WizardValues>({
    mode: 'controlled',
    initialValues: draft
      ? { ...draft.values, recruiterId: currentRecruiterId() ?? draft.values.recruiterId }
      : initialValues(currentRecruiterId()),
    onValuesChange: (values) => {
      if (!done) saveDraft(values, stepRef.current);
    },
  });
  useEffect(() => {
    if (!done) saveDraft(form.getValues(), step);
  }, [step, done, form]);
  const heading = useRef<HTMLHeadingElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const submit = useMutation(
    trpc.site.signup.mutationOptions({
      onSuccess: (_res, input) => {
        notifications.show({
          title: 'Application Submitted Successfully!',
          message: 'Thank you for applying. Please watch your email inbox for the next steps.',
          color: 'green',
        });
        if (input.recruiterId) trackReferredSignup(input.recruiterId, String(input.email));
        clearRecruiterCookie();
        clearDraft();
        setDone(true);
        timer.current = setTimeout(() => onDone?.(), WIZARD_CLOSE_DELAY_MS);
      },
      onError: (error) => {
        notifications.show({
          title: 'Registration Failed',
          message: error.message || 'Something went wrong. Please try again.',
          color: 'red',
        });
        const fields = fieldErrorsOf(error);
        if (fields && Object.keys(fields).length) {
          form.setErrors(fields);
          setStep(Math.min(...Object.keys(fields).map(stepOfField)));
        }
      },
    }),
  );

  const go = (next: number) => {
    setStep(next);
    requestAnimationFrame(() => heading.current?.focus());
  };

  /** Validates this step's fields with the shared schema; other steps' errors stay hidden. */
  const next = () => {
    const all = resolve(form.getValues());
    const own = WIZARD_STEPS[step]!.fields as readonly string[];
    const errors = Object.fromEntries(Object.entries(all).filter(([k]) => own.includes(k)));
    form.setErrors(errors);
    if (Object.keys(errors).length === 0) go(step + 1);
    // Keyboard and screen-reader users land on the first field to fix.
    else requestAnimationFrame(() => root.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  };

  const Step = STEPS[step]!;
  const last = step === STEP_COUNT - 1;
  return (
    <Stack gap="md" data-testid="registration-wizard" ref={root}>
      <div>
        <Text size="sm" c="dimmed">
          Step {step + 1} of {STEP_COUNT}
        </Text>
        <Title order={3} ref={heading} tabIndex={-1} data-testid="wizard-step-title">
          {WIZARD_STEPS[step]!.title}
        </Title>
        <Progress value={((step + 1) / STEP_COUNT) * 100} size="sm" mt="xs" aria-hidden />
      </div>
      {draft && !done && (
        <Alert color="blue" variant="light" p="xs" data-testid="wizard-draft-restored">
          {WIZARD_LEAVE.restored}
        </Alert>
      )}
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (!last) next();
          else if (!submit.isPending && !done) submit.mutate(toApplication(form.getValues()));
        }}
      >
        <Step form={form} />
        <Group justify="space-between" mt="lg" className={classes.footer}>
          {step === 0 ? (
            onCancel ? (
              <Button variant="default" onClick={onCancel}>
                Cancel
              </Button>
            ) : (
              <span />
            )
          ) : (
            <Button variant="default" onClick={() => go(step - 1)} disabled={submit.isPending || done}>
              Previous
            </Button>
          )}
          <Button type="submit" loading={submit.isPending} disabled={done}>
            {last ? 'Submit Application' : 'Next'}
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
