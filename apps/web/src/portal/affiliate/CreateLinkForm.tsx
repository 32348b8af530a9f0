import { affiliateLinkForm } from '@dn/schema';
import { Button, Group, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSchemaForm } from '../../shared/lib/form';
import { fieldErrorsOf, useTrpc } from '../../shared/lib/trpc';

export function CreateLinkForm() {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const form = useSchemaForm(affiliateLinkForm, { recruiterId: '' });
  const create = useMutation(
    trpc.account.createAffiliateLink.mutationOptions({
      onSuccess: async () => {
        notifications.show({
          title: 'Affiliate link created successfully!',
          message: 'Share it to refer dealers.',
          color: 'green',
        });
        await queryClient.invalidateQueries({ queryKey: trpc.account.affiliateStats.queryKey() });
      },
      onError: (error) => {
        const fieldError = fieldErrorsOf(error)?.recruiterId;
        form.setFieldError('recruiterId', fieldError ?? error.message);
        notifications.show({
          title: 'Failed to create affiliate link',
          message: error.message || 'Please try again.',
          color: 'red',
        });
      },
    }),
  );

  return (
    <form onSubmit={form.onSubmit((values) => create.mutate(values))} noValidate>
      <Text size="sm" mb="sm">
        Choose a recruiter ID (3-20 letters, numbers, underscores or dashes). It becomes part of your referral link.
      </Text>
      <Group align="flex-start">
        <TextInput
          flex={1}
          label="Recruiter ID"
          placeholder="e.g. jane-smith"
          key={form.key('recruiterId')}
          {...form.getInputProps('recruiterId')}
        />
        <Button type="submit" mt={25} loading={create.isPending}>
          Create Link
        </Button>
      </Group>
    </form>
  );
}
