import { CLEAR_ALL_CONFIRM_WORD } from '@dn/schema';
import { ConfirmModal } from '@dn/ui';
import { Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { ADMIN_MUTATIONS } from '../shared/mutations';
import { useAdminMutation } from '../shared/use-admin-mutation';

/** Destructive: the admin types the confirmation word before the button works. */
export default function ClearAllDialog({ onClose }: { onClose: () => void }) {
  const [word, setWord] = useState('');
  const clear = useAdminMutation(ADMIN_MUTATIONS.clearAll, { onSuccess: onClose });
  return (
    <ConfirmModal
      title="Clear all dealer applications"
      onClose={onClose}
      confirmLabel="Clear All Dealers"
      color="red"
      disabled={word !== CLEAR_ALL_CONFIRM_WORD}
      loading={clear.isPending}
      onConfirm={() => clear.mutate({ confirm: true })}
    >
      <Text size="sm">
        This deletes every dealer application, with their affiliate links and sign-in links. It cannot be undone. Type{' '}
        {CLEAR_ALL_CONFIRM_WORD} to confirm.
      </Text>
      <TextInput
        label="Confirmation"
        value={word}
        onChange={(e) => setWord(e.currentTarget.value)}
        placeholder={CLEAR_ALL_CONFIRM_WORD}
        data-autofocus
      />
    </ConfirmModal>
  );
}
