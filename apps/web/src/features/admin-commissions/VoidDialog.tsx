import { ConfirmModal } from '@dn/ui';
import { Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTrpc } from '../../lib/trpc';

/** Voids one commission with a reason. */
export function VoidDialog({ id, onClose, onDone }: { id: string | null; onClose: () => void; onDone: () => void }) {
  const trpc = useTrpc();
  const [reason, setReason] = useState('');
  const mutation = useMutation(
    trpc.commissions.void.mutationOptions({
      onSuccess: () => {
        notifications.show({ title: 'Commission voided', message: '', color: 'green' });
        setReason('');
        onClose();
        onDone();
      },
      onError: (e) => notifications.show({ title: 'Failed to void commission', message: e.message, color: 'red' }),
    }),
  );
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
