import { ConfirmModal } from '@dn/ui';
import { Textarea } from '@mantine/core';
import { useState } from 'react';
import { ADMIN_MUTATIONS } from '../shared/mutations';
import { useAdminMutation } from '../shared/use-admin-mutation';

/** Voids one commission with a reason. */
export function VoidDialog({ id, onClose }: { id: string | null; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const mutation = useAdminMutation(ADMIN_MUTATIONS.voidCommission, {
    onSuccess: () => {
      setReason('');
      onClose();
    },
  });
  return (
    <ConfirmModal
      opened={id !== null}
      title="Void commission"
      onClose={onClose}
      confirmLabel="Void"
      color="red"
      disabled={!reason.trim()}
      loading={mutation.isPending}
      onConfirm={() => id && mutation.mutate({ id, reason })}
    >
      <Textarea label="Reason" value={reason} onChange={(e) => setReason(e.currentTarget.value)} autosize minRows={2} />
    </ConfirmModal>
  );
}
