import { login } from '@dn/schema';
import { Alert, Anchor, Button, Group, Stack } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useAfterSignIn } from '../lib/auth';
import { useSchemaForm } from '../lib/form';
import { useTrpc } from '../lib/trpc';
import { loginFailureMessage } from './messages';
import { SignInFields } from './PasswordFields';

/** Dealer sign-in: the username is the dealer's email. */
export function LoginForm({ onForgot }: { onForgot: () => void }) {
  const trpc = useTrpc();
  const afterSignIn = useAfterSignIn();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useSchemaForm(login, { username: '', password: '' });
  const signIn = useMutation(
    trpc.auth.dealerLogin.mutationOptions({
      onSuccess: ({ user }) => afterSignIn(user),
      onError: (error) => setFailure(loginFailureMessage(error)),
    }),
  );

  return (
    <form
      onSubmit={form.onSubmit((values) => {
        setFailure(null);
        signIn.mutate(values);
      })}
      noValidate
    >
      <Stack>
        {failure && (
          <Alert color="red" title="Sign in failed" role="alert">
            {failure}
          </Alert>
        )}
        <SignInFields form={form} usernameLabel="Email" usernameType="email" />
        <Group justify="space-between">
          <Anchor component="button" type="button" size="sm" onClick={onForgot}>
            Forgot password?
          </Anchor>
          <Button type="submit" loading={signIn.isPending}>
            Sign In
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
