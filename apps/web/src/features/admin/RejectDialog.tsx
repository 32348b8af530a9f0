import { ConfirmModal } from '@dn/ui';
import { Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTrpc } from '../../lib/trpc';
import { ReasonInput } from './ReasonInput';
import type { DealerItem } from './types';
import { useDecisionFeedback } from './use-decision';

export default function RejectDialog({ dealer, onClose }: { dealer: DealerItem; onClose: () => void }) {
  const trpc = useTrpc();
  const [reason, setReason] = useState('');
  const feedback = useDecisionFeedback();
  const reject = useMutation(
    trpc.admin.reject.mutationOptions(feedback('Failed to reject dealer', 'Dealer application rejected', onClose)),
  );
  const blank = reason.trim() === '';
  return (
    <ConfirmModal
      title="Reject Dealer Application"
      onClose={onClose}
      confirmLabel="Reject Application"
      color="red"
      disabled={blank || reject.isPending}
      loading={reject.isPending}
      onConfirm={() => reject.mutate({ id: dealer.id, reason: reason.trim() })}
    >
      <Text size="sm">
        Why is the application of <b>{dealer.fullName}</b> rejected?
      </Text>
      <ReasonInput label="Reason" value={reason} onChange={setReason} />
    </ConfirmModal>
  );
}
