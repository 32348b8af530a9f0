import { ConfirmModal } from '@dn/ui';
import { Text } from '@mantine/core';
import { useState } from 'react';
import { ADMIN_MUTATIONS } from '../shared/mutations';
import { useAdminMutation } from '../shared/use-admin-mutation';
import { ReasonInput } from './ReasonInput';
import type { DecisionDealer } from './types';

export default function RejectDialog({ dealer, onClose }: { dealer: DecisionDealer; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const reject = useAdminMutation(ADMIN_MUTATIONS.reject, { onSuccess: onClose });
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
