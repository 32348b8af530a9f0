import { US_STATE_NAMES, US_STATES } from '@dn/schema';
import {
  type ComboboxItem,
  type ComboboxParsedItem,
  Group,
  NumberInput,
  Select,
  Stack,
  Textarea,
  TextInput,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';

/** The job site's fields, shared by the quote form and the dealer's Register a job form. */
export interface SiteValues {
  street: string;
  city: string;
  state: string;
  zipCode: string;
  atticSqFt: number | string;
  fans: number | string;
  notes: string;
}

export const emptySite: SiteValues = {
  street: '',
  city: '',
  state: '',
  zipCode: '',
  atticSqFt: '',
  fans: '',
  notes: '',
};

/** The form's values as the API takes them: empty optional numbers and notes left out. */
export function siteInput(v: SiteValues) {
  return {
    street: v.street,
    city: v.city,
    state: v.state,
    zipCode: v.zipCode,
    ...(v.atticSqFt === '' ? {} : { atticSqFt: Number(v.atticSqFt) }),
    ...(v.fans === '' ? {} : { fans: Number(v.fans) }),
    ...(v.notes.trim() ? { notes: v.notes } : {}),
  };
}

/** "Alaska (AK)": a state is found by its name or its code (issue 47). */
const STATE_OPTIONS: ComboboxItem[] = US_STATES.map((code) => ({
  value: code,
  label: `${US_STATE_NAMES[code] ?? code} (${code})`,
}));

/** The code typed exactly first ("AK" is Alaska, before Arkansas), then names and codes containing the text. */
function findState({ options, search }: { options: ComboboxParsedItem[]; search: string }): ComboboxParsedItem[] {
  const q = search.trim().toLowerCase();
  if (!q) return options;
  const items = options as ComboboxItem[];
  const exact = items.filter((o) => o.value.toLowerCase() === q);
  return [...exact, ...items.filter((o) => !exact.includes(o) && o.label.toLowerCase().includes(q))];
}

// biome-ignore lint/suspicious/noExplicitAny: the two forms' values share these keys
export function SiteFields({ form }: { form: UseFormReturnType<any> }) {
  return (
    <Stack gap="sm">
      <TextInput label="Street" withAsterisk autoComplete="street-address" {...form.getInputProps('street')} />
      <Group grow align="flex-start">
        <TextInput label="City" withAsterisk autoComplete="address-level2" {...form.getInputProps('city')} />
        <Select
          label="State"
          withAsterisk
          searchable
          data={STATE_OPTIONS}
          filter={findState}
          autoComplete="address-level1"
          comboboxProps={{ withinPortal: true }}
          {...form.getInputProps('state')}
        />
      </Group>
      <TextInput
        label="ZIP code"
        withAsterisk
        inputMode="numeric"
        autoComplete="postal-code"
        {...form.getInputProps('zipCode')}
      />
      <Group grow align="flex-start">
        <NumberInput label="Attic size (sq ft)" min={0} allowDecimal={false} {...form.getInputProps('atticSqFt')} />
        <NumberInput label="Solar attic fans" min={0} allowDecimal={false} {...form.getInputProps('fans')} />
      </Group>
      <Textarea label="Notes" autosize minRows={2} {...form.getInputProps('notes')} />
    </Stack>
  );
}
