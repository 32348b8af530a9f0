import { ConfirmModal } from '@dn/ui';
import { Text, Textarea } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTrpc } from '../../lib/trpc';
import classes from './admin.module.css';
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
      <Textarea
        label="Reason"
        value={reason}
        onChange={(e) => setReason(e.currentTarget.value)}
        autosize
        minRows={3}
        className={classes.reasonInput}
        data-autofocus
      />
    </ConfirmModal>
  );
}
