import { CLAIM_MESSAGES } from '@dn/schema/claims';
import {
  calculateSavings,
  SAVINGS_ASSUMPTIONS,
  SAVINGS_LIMITS,
  SAVINGS_REGION_KEYS,
  SAVINGS_REGIONS,
  savingsInput,
} from '@dn/schema/savings';
import {
  ActionIcon,
  Anchor,
  Button,
  Card,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useClaimsInEffect } from '../shared/claims';
import { SavingsResults } from './SavingsResults';
import type { SavingsSearch } from './search';

interface FormState {
  attic: string;
  bills: string[];
  region: string;
  quote: string;
  zip: string;
}

const fromSearch = (s: SavingsSearch): FormState => ({
  attic: String(s.attic ?? ''),
  bills: s.bills ? String(s.bills).split(',').slice(0, SAVINGS_LIMITS.maxBills) : [''],
  region: s.region ?? '',
  quote: String(s.quote ?? ''),
  zip: String(s.zip ?? ''),
});

export const toSearch = (f: FormState): SavingsSearch => {
  const bills = f.bills.map((b) => b.trim()).filter(Boolean);
  return {
    ...(f.attic.trim() ? { attic: f.attic.trim() } : {}),
    ...(bills.length ? { bills: bills.join(',') } : {}),
    ...(f.region ? { region: f.region } : {}),
    ...(f.quote.trim() ? { quote: f.quote.trim() } : {}),
    ...(f.zip.trim() ? { zip: f.zip.trim() } : {}),
  };
};

/** A field's message once something is typed in it (an empty field is "not yet", not an error). */
function fieldError<T>(
  schema: { safeParse(v: T): { success: boolean; error?: { issues: { message: string }[] } } },
  value: T,
  typed: boolean,
) {
  if (!typed) return undefined;
  const r = schema.safeParse(value);
  return r.success ? undefined : r.error?.issues[0]?.message;
}

const shape = savingsInput.shape;

/**
 * Issue 15: the homeowner savings calculator. The form's text is the page's URL (search params), so a
 * dealer can copy the link for a homeowner; nothing is sent anywhere and no account is needed.
 */
export function SavingsCalculator({
  search,
  onSearch,
}: {
  search: SavingsSearch;
  onSearch: (s: SavingsSearch) => void;
}) {
  // The inputs keep their own text (the URL rounds "3000.50" to 3000.5 as a number); the URL follows.
  const [form, setForm] = useState<FormState>(() => fromSearch(search));
  useEffect(() => {
    onSearch(toSearch(form));
  }, [form, onSearch]);
  const clipboard = useClipboard({ timeout: 2000 });
  const set = (patch: Partial<FormState>) => setForm((f) => ({ ...f, ...patch }));
  const setBill = (i: number, v: string) => setForm((f) => ({ ...f, bills: f.bills.map((b, j) => (j === i ? v : b)) }));

  const filledBills = form.bills.filter((b) => b.trim());
  const parsed = savingsInput.safeParse({
    atticSqFt: form.attic,
    bills: filledBills,
    region: form.region,
    quote: form.quote,
  });
  const zip = form.zip.trim();
  const zipError = zip && !/^\d{5}$/.test(zip) ? CLAIM_MESSAGES.zipQuery : undefined;
  // The incentives in effect today (for this ZIP when given): owner-edited, dated content (decision 0930).
  const claims = useClaimsInEffect(zipError ? '' : zip);
  const incentives = (claims.data?.items ?? []).filter((c) => c.kind === 'incentive' && (c.percent || c.amount));
  const result = parsed.success ? calculateSavings(parsed.data, incentives) : null;
  const price = Number(SAVINGS_ASSUMPTIONS.defaultPriceCentsPerSqFt) / 100;

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="savings-title">
      <Title order={2} id="savings-title" size="h3">
        Homeowner savings calculator
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        An estimate from our marketing figures for an insulation blanket and solar attic fan. Works without an account;
        copy the link to share these numbers.
      </Text>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl">
        <Stack gap="sm">
          <TextInput
            label="Attic size (sq ft)"
            inputMode="numeric"
            value={form.attic}
            onChange={(e) => set({ attic: e.currentTarget.value })}
            error={fieldError(shape.atticSqFt, form.attic, form.attic.trim() !== '')}
          />
          {form.bills.map((b, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the inputs are controlled; a bill has no identity but its place
            <Group key={`bill-${i}`} gap="xs" align="flex-end" wrap="nowrap">
              <TextInput
                flex={1}
                label={i === 0 ? 'Monthly energy bill ($)' : `Monthly energy bill ${i + 1} ($)`}
                description={i === 0 ? 'Add more months (up to 12) and we use their average' : undefined}
                inputMode="decimal"
                value={b}
                onChange={(e) => setBill(i, e.currentTarget.value)}
                error={fieldError(shape.bills.element, b, b.trim() !== '')}
              />
              {form.bills.length > 1 && (
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  size="lg"
                  mb={4}
                  aria-label={`Remove bill ${i + 1}`}
                  onClick={() => set({ bills: form.bills.filter((_, j) => j !== i) })}
                >
                  ×
                </ActionIcon>
              )}
            </Group>
          ))}
          {form.bills.length < SAVINGS_LIMITS.maxBills && (
            <Button variant="subtle" size="xs" w="fit-content" onClick={() => set({ bills: [...form.bills, ''] })}>
              Add another month’s bill
            </Button>
          )}
          <Select
            label="Climate region"
            placeholder="Choose a region"
            data={SAVINGS_REGION_KEYS.map((k) => ({ value: k, label: SAVINGS_REGIONS[k].label }))}
            value={form.region || null}
            onChange={(v) => set({ region: v ?? '' })}
            allowDeselect={false}
          />
          <TextInput
            label="Installed price quote ($, optional)"
            description={`Leave empty to estimate at $${price.toFixed(2)} per sq ft`}
            inputMode="decimal"
            value={form.quote}
            onChange={(e) => set({ quote: e.currentTarget.value })}
            error={fieldError(shape.quote, form.quote, form.quote.trim() !== '')}
          />
          <TextInput
            label="ZIP code (optional)"
            description="For state and utility incentives where you live"
            inputMode="numeric"
            autoComplete="postal-code"
            maxLength={5}
            value={form.zip}
            onChange={(e) => set({ zip: e.currentTarget.value })}
            error={zipError}
          />
          <Button
            variant="light"
            w="fit-content"
            disabled={!result}
            onClick={() => clipboard.copy(window.location.href)}
          >
            {clipboard.copied ? 'Link copied' : 'Copy share link'}
          </Button>
        </Stack>
        <div aria-live="polite">
          {result ? (
            <SavingsResults result={result} zip={zipError ? '' : zip} />
          ) : (
            <Text c="dimmed" size="sm" data-testid="savings-empty">
              Enter the attic size, at least one monthly bill and a region to see the estimate.
            </Text>
          )}
        </div>
      </SimpleGrid>
      <Text mt="md">
        Ready to install?{' '}
        <Anchor component={Link} to="/quote" data-testid="calculator-quote-link">
          Get an installation quote
        </Anchor>
      </Text>
    </Card>
  );
}
