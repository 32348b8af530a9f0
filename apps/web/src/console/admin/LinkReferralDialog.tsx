import { ConfirmModal } from '@dn/ui';
import { Text } from '@mantine/core';
import { useState } from 'react';
import { type DealerChoice, DealerPicker } from '../shared/DealerPicker';
import { ADMIN_MUTATIONS } from '../shared/mutations';
import { useAdminMutation } from '../shared/use-admin-mutation';
import type { DecisionDealer } from './types';

/**
 * Choose the referring dealer from a server-side search (any number of dealers): approved or active
 * dealers only (issue 36), never the dealer itself.
 */
export default function LinkReferralDialog({ dealer, onClose }: { dealer: DecisionDealer; onClose: () => void }) {
  const [chosen, setChosen] = useState<DealerChoice | null>(null);
  const link = useAdminMutation(ADMIN_MUTATIONS.linkReferral, { onSuccess: onClose });
  return (
    <ConfirmModal
      title="Link Referral"
      onClose={onClose}
      confirmLabel={link.isPending ? 'Linking...' : 'Link Referral'}
      disabled={!chosen || link.isPending}
      onConfirm={() => chosen && link.mutate({ id: dealer.id, referredBy: chosen.value })}
    >
      <Text size="sm">
        Who referred <b>{dealer.fullName}</b>?
      </Text>
      <DealerPicker
        label="Referring dealer"
        value={chosen}
        onChange={setChosen}
        excludeId={dealer.id}
        referrersOnly
        autoFocus
      />
    </ConfirmModal>
  );
}
