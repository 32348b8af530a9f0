import { PASSWORD_MIN, setupPasswordForm } from '@dn/schema';
import { Button, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useAfterSignIn } from '../../lib/auth';
import { useSchemaForm } from '../../lib/form';
import { httpStatusOf, useTrpc } from '../../lib/trpc';
import { LINK_ERRORS, serverMessage } from './messages';
import { PasswordFields } from './PasswordFields';

/** Sets the password from an emailed link, then the dealer is signed in and lands on /dashboard. */
export function SetupPasswordForm({ token }: { token: string }) {
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
        if (httpStatusOf(error) === 410 || message === LINK_ERRORS['expired-magic-link']) {
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
