import { ConfirmModal } from '@dn/ui';
import { Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTrpc } from '../../lib/trpc';
import { type DealerChoice, DealerPicker } from './DealerPicker';
import type { DealerItem } from './types';
import { useAdminFeedback } from './use-admin-mutation';

/** Choose the referring dealer from a server-side search (any number of dealers); never the dealer itself. */
export default function LinkReferralDialog({ dealer, onClose }: { dealer: DealerItem; onClose: () => void }) {
  const trpc = useTrpc();
  const [chosen, setChosen] = useState<DealerChoice | null>(null);
  const feedback = useAdminFeedback();
  const link = useMutation(
    trpc.admin.linkReferral.mutationOptions(feedback('Failed to link referral', 'Referral linked', onClose)),
  );
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
      <DealerPicker label="Referring dealer" value={chosen} onChange={setChosen} excludeId={dealer.id} autoFocus />
    </ConfirmModal>
  );
}
