import { type CommissionRuleInput, DEFAULT_HOLD_DAYS, displayMoney, MONEY_WORDS, plural, type Tier } from '@dn/schema';
import {
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTrpc } from '../../shared/lib/trpc';
import { ADMIN_MUTATIONS } from '../shared/mutations';
import { OwnerOnlyNote } from '../shared/OwnerOnlyNote';
import { useAdminRole } from '../shared/role';
import { useAdminMutation } from '../shared/use-admin-mutation';

type Rule = Omit<CommissionRuleInput, 'tier'>;

const TYPE_OPTIONS: { value: Rule['type']; label: string }[] = [
  { value: 'percent', label: 'Percent' },
  { value: 'fixed', label: 'Fixed $' },
];
const APPLIES_OPTIONS: { value: Rule['appliesTo']; label: string }[] = [
  { value: 'first', label: 'First order' },
  { value: 'all', label: 'All orders' },
];

/** A required choice among a rule's options (no empty value). */
function Choice<T extends string>(props: {
  label: string;
  data: { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
  readOnly: boolean;
}) {
  const { onChange, ...rest } = props;
  return <Select {...rest} onChange={(v) => v && onChange(v as T)} allowDeselect={false} />;
}

/** One card per tier of the referred dealer: the rule in force, and a form that saves a new version. */
export function RulesPanel() {
  const trpc = useTrpc();
  const rules = useQuery(trpc.commissions.rules.queryOptions());
  if (!rules.data) return <Skeleton h={160} />;
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }}>
      {rules.data.map((r) => (
        <RuleCard key={r.tier} tier={r.tier} current={r.rule} />
      ))}
    </SimpleGrid>
  );
}

function ruleSummary(rule: Rule): string {
  const what = rule.type === 'percent' ? `${rule.value}%` : displayMoney(rule.value);
  const when =
    rule.appliesTo === 'first'
      ? 'of the first order'
      : rule.months
        ? `of every order for ${plural(rule.months, 'month')}`
        : 'of every order';
  return `${what} ${when}, held ${plural(rule.holdDays, 'day')}`;
}

function RuleCard({ tier, current }: { tier: Tier; current: (Rule & { version: number }) | null }) {
  const { can } = useAdminRole();
  // The rules are the owner's settings (issue 36): the others read them, with the word why.
  const readOnly = !can('owner');
  const [rule, setRule] = useState<Rule>(
    current ?? { type: 'percent', value: '10.00', appliesTo: 'first', months: null, holdDays: DEFAULT_HOLD_DAYS },
  );
  const save = useAdminMutation(ADMIN_MUTATIONS.saveRule);
  return (
    <Paper withBorder p="md" radius="md" data-testid={`rule-${tier}`}>
      <Stack gap="xs">
        <Title order={4}>{MONEY_WORDS.ruleTitle(tier)}</Title>
        <Text size="xs">{MONEY_WORDS.ruleHelp(tier)}</Text>
        <Text size="sm" c="dimmed">
          {current ? `Version ${current.version}: ${ruleSummary(current)}` : 'No rule: no commission for this tier'}
        </Text>
        <Group grow>
          <Choice
            label="Type"
            data={TYPE_OPTIONS}
            value={rule.type}
            onChange={(type) => setRule({ ...rule, type })}
            readOnly={readOnly}
          />
          <TextInput
            label="Value"
            readOnly={readOnly}
            value={rule.value}
            onChange={(e) => setRule({ ...rule, value: e.currentTarget.value })}
          />
        </Group>
        <Choice
          label="Applies to"
          data={APPLIES_OPTIONS}
          value={rule.appliesTo}
          readOnly={readOnly}
          onChange={(appliesTo) => setRule({ ...rule, appliesTo, months: appliesTo === 'first' ? null : rule.months })}
        />
        <Group grow align="flex-start">
          <NumberInput
            label="Months"
            description={rule.appliesTo === 'first' ? MONEY_WORDS.monthsFirst : MONEY_WORDS.monthsAll}
            disabled={rule.appliesTo === 'first'}
            readOnly={readOnly}
            value={rule.months ?? ''}
            min={1}
            max={120}
            onChange={(v) => setRule({ ...rule, months: typeof v === 'number' ? v : null })}
          />
          <NumberInput
            label="Hold days"
            readOnly={readOnly}
            value={rule.holdDays}
            min={0}
            max={365}
            onChange={(v) => setRule({ ...rule, holdDays: typeof v === 'number' ? v : 0 })}
          />
        </Group>
        {readOnly ? (
          <OwnerOnlyNote />
        ) : (
          <Button loading={save.isPending} onClick={() => save.mutate({ tier, ...rule })}>
            Save {tier} rule
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
