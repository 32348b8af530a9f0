import { PASSWORD_MIN, setupPasswordForm } from '@dn/schema';
import { Alert, Anchor, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useAfterSignIn } from '../lib/auth';
import { useSchemaForm } from '../lib/form';
import { httpStatusOf, useTrpc } from '../lib/trpc';
import { ForgotPasswordDialog } from './ForgotPasswordDialog';
import { LINK_ERRORS, serverMessage } from './messages';
import { PasswordFields } from './PasswordFields';

const isExpired = (error: unknown) =>
  httpStatusOf(error) === 410 || serverMessage(error) === LINK_ERRORS['expired-magic-link'];

/**
 * The link is asked about when the page opens (issue 36): a used or expired one offers a fresh
 * link at once instead of a form that cannot work; a malformed one goes to /login's explanation.
 * When the question fails for another reason (offline), the form shows and the server decides.
 */
export function SetupPasswordForm({ token }: { token: string }) {
  const trpc = useTrpc();
  const navigate = useNavigate();
  const check = useMutation(trpc.account.checkLink.mutationOptions());
  const { mutate: checkLink } = check;
  useEffect(() => checkLink({ token }), [checkLink, token]);
  const invalid = check.isError && serverMessage(check.error) === LINK_ERRORS['invalid-magic-link'];
  useEffect(() => {
    if (invalid) void navigate({ to: '/login', search: { error: 'invalid-magic-link' } });
  }, [invalid, navigate]);

  if (check.isIdle || check.isPending || invalid) {
    return (
      <Center py="lg" aria-busy="true">
        <Loader size="sm" aria-label="Checking your link" />
      </Center>
    );
  }
  if (check.isError && isExpired(check.error)) return <DeadLink />;
  return <PasswordForm token={token} />;
}

/** A used or expired link: a fresh one by email, and nothing to type a password into. */
function DeadLink() {
  const [open, setOpen] = useState(false);
  return (
    <Stack data-testid="dead-link">
      <Alert color="orange" title="This link no longer works" role="alert">
        {LINK_ERRORS['expired-magic-link']} A link works once, and only for a limited time.
      </Alert>
      <Button onClick={() => setOpen(true)}>Email me a fresh link</Button>
      <Text size="sm" ta="center">
        Already set your password?{' '}
        <Anchor component={Link} to="/login">
          Sign in
        </Anchor>
      </Text>
      <ForgotPasswordDialog
        opened={open}
        onClose={() => setOpen(false)}
        intro="Enter the email address of your dealer account and we will email you a fresh link."
      />
    </Stack>
  );
}

/** Sets the password from an emailed link, then the dealer is signed in and lands on /dashboard. */
function PasswordForm({ token }: { token: string }) {
  const trpc = useTrpc();
  const navigate = useNavigate();
  const afterSignIn = useAfterSignIn();
  const form = useSchemaForm(setupPasswordForm, { token, password: '', confirmPassword: '' });
  const setup = useMutation(
    trpc.account.setupPassword.mutationOptions({
      onSuccess: async ({ user }) => {
        notifications.show({
          title: `Welcome, ${user.fullName}!`,
          message: 'Your password is set and you are signed in.',
          color: 'green',
        });
        await afterSignIn(user, false);
      },
      onError: async (error) => {
        const message = serverMessage(error);
        // A dead link sends the user back to /login, which explains and offers a fresh one.
        // Over tRPC an expired link is a 400 like a malformed one: the words tell them apart.
        if (isExpired(error)) {
          await navigate({ to: '/login', search: { error: 'expired-magic-link' } });
          return;
        }
        if (message === LINK_ERRORS['invalid-magic-link']) {
          await navigate({ to: '/login', search: { error: 'invalid-magic-link' } });
          return;
        }
        notifications.show({
          title: 'Password Setup Failed',
          message: message || 'Password setup failed.',
          color: 'red',
        });
      },
    }),
  );

  return (
    <form
      onSubmit={form.onSubmit((values) => setup.mutate({ token: values.token, password: values.password }))}
      noValidate
    >
      <Stack>
        <Text size="sm">Choose a password for your dealer account (at least {PASSWORD_MIN} characters).</Text>
        <PasswordFields
          form={form}
          fields={[
            { name: 'password', label: 'New password', autoComplete: 'new-password' },
            { name: 'confirmPassword', label: 'Confirm password', autoComplete: 'new-password' },
          ]}
        />
        <Button type="submit" loading={setup.isPending}>
          Set Password
        </Button>
      </Stack>
    </form>
  );
}
