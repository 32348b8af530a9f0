import { type AdminRoleName, acceptInviteForm, PASSWORD_MIN, withArticle } from '@dn/schema';
import { Alert, Button, Center, Container, Loader, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useEffect } from 'react';
import { PasswordFields, serverMessage } from '../../shared/auth';
import { useAfterSignIn } from '../../shared/lib/auth';
import { useSchemaForm } from '../../shared/lib/form';
import { fieldErrorsOf, httpStatusOf, useTrpc } from '../../shared/lib/trpc';

/** /admin/accept-invite?token=…: the invited admin chooses a name and password and is signed in (issue 14). */
export const Route = createFileRoute('/admin/accept-invite')({
  validateSearch: (s: Record<string, unknown>): { token?: string } =>
    typeof s.token === 'string' ? { token: s.token } : {},
  component: AcceptInvitePage,
});

/** What each role may do (docs/decisions/0610-admin-roles.md), told before accepting. */
const ROLE_MAY: Record<AdminRoleName, string> = {
  viewer: 'read every admin screen, without exporting personal data',
  reviewer: 'decide applications and dealers, calls, orders and commissions, and export the dealers CSV',
  owner: 'do everything, including the team, content settings, commission rules and payouts',
};

/**
 * Issue 36: the page asks about its link when it opens, so it names the email and role being
 * accepted (or says at once that the link no longer works), gives the password rule, asks for the
 * password twice, and welcomes the new admin after accepting.
 */
function AcceptInvitePage() {
  const { token = '' } = Route.useSearch();
  const trpc = useTrpc();
  const look = useMutation(trpc.team.invitation.mutationOptions());
  const { mutate: lookUp } = look;
  useEffect(() => lookUp({ token }), [lookUp, token]);

  return (
    <Container size="xs" py="xl">
      <Paper withBorder p="lg" radius="md">
        <Stack>
          <Title order={1} ta="center">
            Join the admin team
          </Title>
          {look.isSuccess ? (
            <AcceptForm token={token} invitation={look.data} />
          ) : look.isError ? (
            <Alert color="orange" title="This invitation no longer works" role="alert">
              {httpStatusOf(look.error) === 410
                ? 'It was already accepted, replaced by a newer invitation, or it expired (invitations last 72 hours).'
                : serverMessage(look.error) || 'The invitation could not be checked. Please reload the page.'}{' '}
              Ask an owner of the admin console to invite you again.
            </Alert>
          ) : (
            <Center py="lg" aria-busy="true">
              <Loader size="sm" aria-label="Checking your invitation" />
            </Center>
          )}
        </Stack>
      </Paper>
    </Container>
  );
}

function AcceptForm({ token, invitation }: { token: string; invitation: { email: string; role: AdminRoleName } }) {
  const trpc = useTrpc();
  const afterSignIn = useAfterSignIn();
  const form = useSchemaForm(acceptInviteForm, { fullName: '', password: '', confirmPassword: '' });
  const accept = useMutation(
    trpc.team.acceptInvite.mutationOptions({
      onSuccess: async ({ user }) => {
        notifications.show({
          title: `Welcome to the admin team, ${user.fullName}!`,
          message: `You are signed in as ${withArticle(invitation.role)}. Your username is ${invitation.email}.`,
          color: 'green',
        });
        await afterSignIn(user);
      },
      onError: (error) => form.setErrors(fieldErrorsOf(error) ?? {}),
    }),
  );
  const fieldError = Object.keys(form.errors).length > 0;
  return (
    <form onSubmit={form.onSubmit(({ fullName, password }) => accept.mutate({ token, fullName, password }))} noValidate>
      <Stack>
        <Text data-testid="invitation-summary">
          You are accepting an invitation for <strong>{invitation.email}</strong> as{' '}
          <strong>{withArticle(invitation.role)}</strong>: you may {ROLE_MAY[invitation.role]}. This email address will
          be your username.
        </Text>
        <TextInput
          label="Full name"
          autoComplete="name"
          key={form.key('fullName')}
          {...form.getInputProps('fullName')}
        />
        <PasswordFields
          form={form}
          fields={[
            {
              name: 'password',
              label: 'Password',
              autoComplete: 'new-password',
              description: `At least ${PASSWORD_MIN} characters; common passwords are refused.`,
            },
            { name: 'confirmPassword', label: 'Confirm password', autoComplete: 'new-password' },
          ]}
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
  );
}
