import { NO_REFERRAL, PUBLIC_DEALER_SEARCH_MIN } from '@dn/schema';
import { Combobox, InputBase, Loader, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTrpc } from '../../shared/lib/trpc';
import type { WizardForm } from './form';

const NO_REFERRAL_LABEL = 'No referral';
/** Names of the referrers chosen on this page, by reference, so the review step can show one without a fetch. */
const chosen = new Map<string, string>([[NO_REFERRAL, NO_REFERRAL_LABEL]]);
export const referrerLabel = (ref: string) => chosen.get(ref) ?? '';

/** A dealer as the picker gets it: `ref` is opaque (issue 35), sent back as the signup's referredBy. */
type Dealer = { ref: string; fullName: string; companyName: string | null };
const labelOf = (d: Dealer) => (d.companyName ? `${d.fullName} (${d.companyName})` : d.fullName);

/**
 * "How were you referred?" (issue 15): a server-side typeahead. Typing 3+ characters asks
 * GET /api/dealers/public?q= (debounced 250 ms) for at most 20 dealers by name or company, each with
 * an opaque reference (never an id) that the signup sends back as referredBy;
 * arrows, Enter and Escape work as in any combobox; "No referral" is always offered.
 */
export function ReferralPicker({ form }: { form: WizardForm }) {
  const trpc = useTrpc();
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const value = form.getValues().referredBy;
  const [search, setSearch] = useState(() => (value ? referrerLabel(value) : ''));
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const asking = debounced.length >= PUBLIC_DEALER_SEARCH_MIN && debounced !== referrerLabel(value ?? '');
  const dealers = useQuery({
    ...trpc.site.publicDealers.queryOptions({ q: debounced }),
    enabled: asking,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
  const found = asking ? (dealers.data ?? []) : [];
  const { error } = form.getInputProps('referredBy');

  const choose = (ref: string) => {
    const d = found.find((x) => x.ref === ref);
    if (d) chosen.set(d.ref, labelOf(d));
    form.setFieldValue('referredBy', ref);
    setSearch(referrerLabel(ref));
    combobox.closeDropdown();
  };

  return (
    <Combobox store={combobox} onOptionSubmit={choose} withinPortal>
      <Combobox.Target withExpandedAttribute>
        <InputBase
          label="How were you referred?"
          description={`Type ${PUBLIC_DEALER_SEARCH_MIN} or more letters of the dealer's name or company`}
          placeholder="Search for the dealer who referred you"
          withAsterisk
          autoComplete="off"
          value={search}
          error={error}
          rightSection={dealers.isFetching ? <Loader size={16} /> : <Combobox.Chevron />}
          rightSectionPointerEvents="none"
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            if (value) form.setFieldValue('referredBy', '');
            combobox.openDropdown();
            combobox.updateSelectedOptionIndex();
          }}
          onClick={() => combobox.openDropdown()}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => {
            combobox.closeDropdown();
            setSearch(value ? referrerLabel(value) : search);
          }}
          data-testid="referral-picker"
        />
      </Combobox.Target>
      <Combobox.Dropdown>
        <Combobox.Options mah={280} style={{ overflowY: 'auto' }}>
          <Combobox.Option value={NO_REFERRAL}>{NO_REFERRAL_LABEL}</Combobox.Option>
          {found.map((d) => (
            <Combobox.Option key={d.ref} value={d.ref}>
              {labelOf(d)}
            </Combobox.Option>
          ))}
          {asking && !dealers.isFetching && found.length === 0 && (
            <Combobox.Empty>No dealer by that name</Combobox.Empty>
          )}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
