import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTrpc } from '../../shared/lib/trpc';

export interface DealerChoice {
  value: string;
  label: string;
}

/**
 * A dealer chosen from a server-side search (`admin.dealerOptions`, any number of dealers): type a
 * name, company or email, then arrows and Enter (or the mouse). Used by the Link Referral dialog and
 * the Commissions tab's recruiter filter.
 */
export function DealerPicker({
  label,
  value,
  onChange,
  excludeId,
  referrersOnly = false,
  clearable = false,
  autoFocus = false,
  w,
}: {
  label: string;
  value: DealerChoice | null;
  onChange: (choice: DealerChoice | null) => void;
  /** a dealer never offered (the dealer whose referrer is being chosen) */
  excludeId?: string;
  /** Only dealers who may refer (approved or active): the Link Referral dialog. */
  referrersOnly?: boolean;
  clearable?: boolean;
  autoFocus?: boolean;
  w?: number;
}) {
  const trpc = useTrpc();
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 200);
  // Once chosen, the input shows the choice's label: that is not a new search.
  const term = value && q === value.label ? '' : q;
  const options = useQuery(
    trpc.admin.dealerOptions.queryOptions(
      { ...(term ? { q: term } : {}), ...(referrersOnly ? { only: 'referrers' as const } : {}) },
      { placeholderData: keepPreviousData },
    ),
  );
  const data = (options.data?.items ?? [])
    .filter((o) => o.id !== excludeId)
    .map((o) => ({ value: o.id, label: `${o.fullName}${o.companyName ? ` (${o.companyName})` : ''} · ${o.email}` }));
  if (value && !data.some((o) => o.value === value.value)) data.unshift(value);
  return (
    <Select
      label={label}
      placeholder="Search by name, company or email"
      searchable
      clearable={clearable}
      filter={({ options: o }) => o}
      searchValue={search}
      onSearchChange={setSearch}
      data={data}
      value={value?.value ?? null}
      onChange={(v, option) => onChange(v && option ? { value: v, label: option.label } : null)}
      nothingFoundMessage={options.isFetching ? 'Searching...' : 'No dealer found'}
      comboboxProps={{ withinPortal: true }}
      data-autofocus={autoFocus || undefined}
      w={w}
    />
  );
}
