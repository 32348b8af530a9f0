import { ConfirmModal } from '@dn/ui';
import { Select, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTrpc } from '../../lib/trpc';
import type { DealerItem } from './types';
import { useAdminFeedback } from './use-admin-mutation';

/** Choose the referring dealer from a server-side search (any number of dealers); never the dealer itself. */
export default function LinkReferralDialog({ dealer, onClose }: { dealer: DealerItem; onClose: () => void }) {
  const trpc = useTrpc();
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 200);
  const [chosen, setChosen] = useState<{ value: string; label: string } | null>(null);
  // Once chosen, the input shows the choice's label: that is not a new search.
  const term = chosen && q === chosen.label ? '' : q;
  const options = useQuery(
    trpc.admin.dealerOptions.queryOptions(term ? { q: term } : {}, { placeholderData: keepPreviousData }),
  );
  const feedback = useAdminFeedback();
  const link = useMutation(
    trpc.admin.linkReferral.mutationOptions(feedback('Failed to link referral', 'Referral linked', onClose)),
  );
  const data = (options.data?.items ?? [])
    .filter((o) => o.id !== dealer.id)
    .map((o) => ({ value: o.id, label: `${o.fullName}${o.companyName ? ` (${o.companyName})` : ''} · ${o.email}` }));
  if (chosen && !data.some((o) => o.value === chosen.value)) data.unshift(chosen);
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
      <Select
        label="Referring dealer"
        placeholder="Search by name, company or email"
        searchable
        filter={({ options: o }) => o}
        searchValue={search}
        onSearchChange={setSearch}
        data={data}
        value={chosen?.value ?? null}
        onChange={(value, option) => setChosen(value && option ? { value, label: option.label } : null)}
        nothingFoundMessage={options.isFetching ? 'Searching...' : 'No dealer found'}
        comboboxProps={{ withinPortal: true }}
        data-autofocus
      />
    </ConfirmModal>
  );
}
