import { SAVINGS_ASSUMPTIONS as A, percentOfBp, type SavingsResult } from '@dn/schema/savings';
import { Stack, Table, Text, Title } from '@mantine/core';
import { usd } from './format';

interface Row {
  id: string;
  figure: string;
  amount: string;
  source: string;
}

function rowsOf(r: SavingsResult, zip: string): Row[] {
  const share = percentOfBp(r.hvacShareBp);
  const range = (low: bigint, high: bigint) => `${usd(low)} – ${usd(high)}`;
  const payback = (y: number | null) => (y === null ? `after year ${A.years}` : `year ${y}`);
  return [
    {
      id: 'monthly',
      figure: 'Monthly energy bill',
      amount: usd(r.monthlyBillCents),
      source: 'Your bills (their average)',
    },
    { id: 'annual', figure: 'Yearly energy bill', amount: usd(r.annualBillCents), source: 'Monthly bill × 12' },
    {
      id: 'hvac',
      figure: 'Heating and cooling per year',
      amount: usd(r.annualHvacCents),
      source: `${share} of the bill: heating and cooling is 50–60% of home energy use, by region`,
    },
    {
      id: 'first-year',
      figure: 'Savings in year one',
      amount: range(r.firstYear.low, r.firstYear.high),
      source: `${percentOfBp(A.savingsLowBp)}–${percentOfBp(A.savingsHighBp)} savings on heating and cooling`,
    },
    {
      id: 'cap',
      figure: 'Most a year can save',
      amount: usd(r.capCents),
      source: `Up to ${percentOfBp(A.maxBillReductionBp)} cost reduction on the whole bill`,
    },
    {
      id: 'ac-loss',
      figure: 'A/C efficiency loss in year one without it',
      amount: usd(r.acLossCents),
      source: `${percentOfBp(A.acLossFirstYearBp)} A/C efficiency loss in the first year (not added to the savings)`,
    },
    {
      id: 'total',
      figure: `Savings over ${A.years} years`,
      amount: range(r.total.low, r.total.high),
      source: `Rates up ${percentOfBp(A.rateRisePerYearBp)} per year (table below)`,
    },
    {
      id: 'price',
      figure: r.priceFromQuote ? 'Installed price (your quote)' : 'Installed price (estimate)',
      amount: usd(r.installedCents),
      source: r.priceFromQuote
        ? 'The quote you entered'
        : `Attic size × $${(Number(A.defaultPriceCentsPerSqFt) / 100).toFixed(2)} per sq ft: our placeholder, ask your dealer for a quote`,
    },
    // Incentives in effect today (decision 0930): owner-edited, dated, each with its source.
    ...(r.incentives.length
      ? r.incentives.map((i, n) => ({
          id: `incentive-${n + 1}`,
          figure: i.text,
          amount: `− ${usd(i.cents)}`,
          source: 'Incentive in effect today (confirm your eligibility with its program or a tax adviser)',
        }))
      : [
          {
            id: 'incentives',
            figure: 'Incentives',
            amount: usd(0n),
            source: zip
              ? `No incentive in effect today for ZIP ${zip}`
              : 'No incentive in effect today; enter your ZIP code for state and utility incentives',
          },
        ]),
    {
      id: 'net',
      figure: 'Net cost',
      amount: usd(r.netCostCents),
      source: r.incentives.length ? 'Installed price − incentives' : 'Installed price',
    },
    {
      id: 'payback',
      figure: 'Pays for itself',
      amount: `${payback(r.paybackYear.high)} (high) / ${payback(r.paybackYear.low)} (low)`,
      source: 'First year the savings so far reach the net cost',
    },
  ];
}

export function SavingsResults({ result, zip }: { result: SavingsResult; zip: string }) {
  return (
    <Stack gap="md">
      <Table data-testid="savings-results" verticalSpacing={6}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Estimate</Table.Th>
            <Table.Th>Amount</Table.Th>
            <Table.Th>Comes from</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rowsOf(result, zip).map((row) => (
            <Table.Tr key={row.id} data-testid={`savings-${row.id}`}>
              <Table.Th scope="row" fw={500}>
                {row.figure}
              </Table.Th>
              <Table.Td data-testid="amount">{row.amount}</Table.Td>
              <Table.Td>
                <Text size="xs" c="dimmed">
                  {row.source}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Title order={3} size="h5">
        Year by year (rates up {percentOfBp(A.rateRisePerYearBp)} per year)
      </Title>
      <Table data-testid="savings-years" verticalSpacing={4}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Year</Table.Th>
            <Table.Th>Yearly bill</Table.Th>
            <Table.Th>Savings (low – high)</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {result.years.map((y) => (
            <Table.Tr key={y.year}>
              <Table.Td>{y.year}</Table.Td>
              <Table.Td>{usd(y.billCents)}</Table.Td>
              <Table.Td>
                {usd(y.savings.low)} – {usd(y.savings.high)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
