import { resetPassword } from '@dn/schema';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useSchemaForm } from '../lib/form';
import { useTrpc } from '../lib/trpc';
import { serverMessage } from './messages';

export interface ForgotPasswordDialogProps {
  opened: boolean;
  onClose: () => void;
  /** Shown above the form, e.g. why a fresh link is needed. */
  intro?: string;
}

/**
 * Asks for a password link by email: a reset link for a dealer with a password, a fresh
 * set-up link for one who never set it (decision 0201). A form, then a confirmation view.
 */
export function ForgotPasswordDialog({ opened, onClose, intro }: ForgotPasswordDialogProps) {
  const trpc = useTrpc();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useSchemaForm(resetPassword, { email: '' });
  const send = useMutation(
    trpc.account.resetPassword.mutationOptions({
      onSuccess: (_data, input) => {
        setSentTo(input.email);
        notifications.show({ title: 'Password reset link sent', message: 'Please check your inbox.', color: 'green' });
      },
      onError: (error) =>
        notifications.show({
          title: 'Failed to send password reset email',
          message: serverMessage(error) || 'Please try again.',
          color: 'red',
        }),
    }),
  );

  const close = () => {
    onClose();
    setSentTo(null);
    send.reset();
  };

  return (
    <Modal opened={opened} onClose={close} title="Reset your password" centered>
      {sentTo ? (
        <Stack>
          <Text>
            If an account exists for <strong>{sentTo}</strong>, we have sent it a link to set a new password. The link
            works once; a reset link expires in 1 hour.
          </Text>
          <Text size="sm" c="dimmed">
            Nothing arrived? Check your spam folder, or send another email.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Close
            </Button>
            <Button
              onClick={() => {
                setSentTo(null);
                send.reset();
              }}
            >
              Send another email
            </Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={form.onSubmit((values) => send.mutate(values))} noValidate>
          <Stack>
            <Text size="sm">
              {intro ?? 'Enter the email address of your dealer account and we will email you a link.'}
            </Text>
            <TextInput
              label="Email"
              type="email"
              autoComplete="email"
              data-autofocus
              key={form.key('email')}
              {...form.getInputProps('email')}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={send.isPending}>
                Send reset link
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
