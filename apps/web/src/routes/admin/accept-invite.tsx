import { acceptInviteInput } from '@dn/schema';
import { Button, Container, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { PasswordFields } from '../../features/auth';
import { useAfterSignIn } from '../../lib/auth';
import { useSchemaForm } from '../../lib/form';
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
  // The token is the server's to judge (its answer shows below); the form checks what is typed.
  const form = useSchemaForm(acceptInviteInput.omit({ token: true }), { fullName: '', password: '' });
  const accept = useMutation(
    trpc.team.acceptInvite.mutationOptions({
      onSuccess: ({ user }) => afterSignIn(user),
      onError: (error) => form.setErrors(fieldErrorsOf(error) ?? {}),
    }),
  );
  const fieldError = Object.keys(form.errors).length > 0;
  return (
    <Container size="xs" py="xl">
      <Paper withBorder p="lg" radius="md">
        <form onSubmit={form.onSubmit((values) => accept.mutate({ token, ...values }))} noValidate>
          <Stack>
            <Title order={1} ta="center">
              Join the admin team
            </Title>
            <TextInput
              label="Full name"
              autoComplete="name"
              key={form.key('fullName')}
              {...form.getInputProps('fullName')}
            />
            <PasswordFields
              form={form}
              fields={[{ name: 'password', label: 'Password', autoComplete: 'new-password' }]}
            />
            {accept.isError && !fieldError && (
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
