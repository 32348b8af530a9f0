import { adminLoginForm } from '@dn/schema';
import { Anchor, Button, Container, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { TRPCClientError } from '@trpc/client';
import { SessionEndedNotice, SignInFields } from '../../shared/auth';
import { useAfterSignIn } from '../../shared/lib/auth';
import { useSchemaForm } from '../../shared/lib/form';
import { useTrpc } from '../../shared/lib/trpc';

export const Route = createFileRoute('/admin/login')({ component: AdminLoginPage });

function AdminLoginPage() {
  const trpc = useTrpc();
  const afterSignIn = useAfterSignIn();
  const form = useSchemaForm(adminLoginForm, { username: '', password: '' });
  const signIn = useMutation(
    trpc.auth.adminLogin.mutationOptions({
      onSuccess: ({ user }) => afterSignIn(user),
      onError: (error) => {
        // An answer from the server is a failed login; anything else (network) is an exception.
        const answered = error instanceof TRPCClientError && error.data;
        notifications.show(
          answered
            ? { title: 'Login Failed', message: error.message || 'Invalid credentials', color: 'red' }
            : { title: 'Login Failed', message: 'An error occurred during login. Please try again.', color: 'red' },
        );
      },
    }),
  );

  return (
    <Container size="xs" py="xl">
      <Paper withBorder p="lg" radius="md">
        <form onSubmit={form.onSubmit((values) => signIn.mutate(values))} noValidate>
          <Stack>
            <Title order={1} ta="center">
              Admin Portal
            </Title>
            <SessionEndedNotice />
            <SignInFields form={form} usernameLabel="Username" />
            <Button type="submit" loading={signIn.isPending}>
              Sign In
            </Button>
            <Text size="sm" ta="center">
              Are you a dealer?{' '}
              <Anchor component={Link} to="/login">
                Dealer login
              </Anchor>
            </Text>
          </Stack>
        </form>
      </Paper>
    </Container>
  );
}
