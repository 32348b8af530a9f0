import { login } from '@dn/schema';
import { Alert, Anchor, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { ME_QUERY_KEY, setCurrentUser } from '../../lib/auth';
import { schemaResolver } from '../../lib/form';
import { trpc } from '../../lib/trpc';
import { loginFailureMessage } from './messages';

/** Dealer sign-in: the username is the dealer's email. */
export function LoginForm({ onForgot }: { onForgot: () => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { username: '', password: '' },
    validate: schemaResolver(login),
  });
  const signIn = useMutation(
    trpc.auth.dealerLogin.mutationOptions({
      onSuccess: async ({ user }) => {
        setCurrentUser(queryClient, user);
        await queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
        await navigate({ to: user.role === 'admin' ? '/admin' : '/dashboard' });
      },
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
        <TextInput
          label="Email"
          type="email"
          autoComplete="username"
          key={form.key('username')}
          {...form.getInputProps('username')}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          key={form.key('password')}
          {...form.getInputProps('password')}
        />
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
