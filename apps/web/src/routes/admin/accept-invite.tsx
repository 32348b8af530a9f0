import { Button, Container, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import { useAfterSignIn } from '../../lib/auth';
import { fieldErrorsOf, useTrpc } from '../../lib/trpc';

/** /admin/accept-invite?token=…: the invited admin chooses a name and password and is signed in (issue 14). */
export const Route = createFileRoute('/admin/accept-invite')({
  validateSearch: (s: Record<string, unknown>): { token?: string } =>
    typeof s.token === 'string' ? { token: s.token } : {},
  component: AcceptInvitePage,
});

function AcceptInvitePage() {
  const { token = '' } = Route.useSearch();
  const trpc = useTrpc();
  const afterSignIn = useAfterSignIn();
  const [fullName, setFullName] = useState('');
  const [password, setPassword] = useState('');
  const accept = useMutation(trpc.team.acceptInvite.mutationOptions({ onSuccess: ({ user }) => afterSignIn(user) }));
  const errors = fieldErrorsOf(accept.error) ?? {};
  return (
    <Container size="xs" py="xl">
      <Paper withBorder p="lg" radius="md">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            accept.mutate({ token, fullName, password });
          }}
        >
          <Stack>
            <Title order={1} ta="center">
              Join the admin team
            </Title>
            <TextInput
              label="Full name"
              autoComplete="name"
              value={fullName}
              onChange={(e) => setFullName(e.currentTarget.value)}
              error={errors.fullName}
            />
            <PasswordInput
              label="Password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              error={errors.password}
            />
            {accept.isError && !errors.fullName && !errors.password && (
              <Text c="red" role="alert">
                {accept.error.message}
              </Text>
            )}
            <Button type="submit" loading={accept.isPending}>
              Set password and sign in
            </Button>
          </Stack>
        </form>
      </Paper>
    </Container>
  );
}
