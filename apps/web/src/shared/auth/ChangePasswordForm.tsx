import { type ChangeOwnPasswordInput, changeOwnPasswordInput, PASSWORD_MIN } from '@dn/schema';
import { Button, Group, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useSchemaForm } from '../lib/form';
import { fieldErrorsOf } from '../lib/trpc';
import { PasswordFields } from './PasswordFields';

/**
 * Change your own password (current one required; the server ends your other sessions): the
 * dealer's Security card and the admin's account tab. `submit` is the mutation's mutateAsync;
 * its field errors show under the fields, anything else as a notification.
 */
export function ChangePasswordForm({
  submit,
  pending,
}: {
  submit: (values: ChangeOwnPasswordInput) => Promise<unknown>;
  pending: boolean;
}) {
  const form = useSchemaForm(changeOwnPasswordInput, { currentPassword: '', newPassword: '' });
  return (
    <form
      noValidate
      onSubmit={form.onSubmit(async (values) => {
        try {
          await submit(values);
          form.reset();
        } catch (error) {
          const fields = fieldErrorsOf(error);
          if (fields) form.setErrors(fields);
          else
            notifications.show({
              title: 'Could not change the password',
              message: (error as Error).message,
              color: 'red',
            });
        }
      })}
    >
      <Stack gap="sm">
        <PasswordFields
          form={form}
          fields={[
            { name: 'currentPassword', label: 'Current password', autoComplete: 'current-password' },
            {
              name: 'newPassword',
              label: 'New password',
              autoComplete: 'new-password',
              description: `At least ${PASSWORD_MIN} characters`,
            },
          ]}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={pending}>
            Change password
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
