import { Group, Paper, SimpleGrid, Text } from '@mantine/core';
import type { ReferralFunnel } from '../dashboard';

const STEPS = [
  { key: 'visits', label: 'Link visits' },
  { key: 'applications', label: 'Applications' },
  { key: 'approvals', label: 'Approvals' },
  { key: 'firstOrders', label: 'First orders' },
] as const;

/** The recruiter's funnel (issue 13): each step with its share of the step before. */
export function Funnel({ funnel }: { funnel: ReferralFunnel }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} data-testid="referral-funnel">
      {STEPS.map((s, i) => {
        const value = funnel[s.key];
        const prev = i > 0 ? funnel[STEPS[i - 1]!.key] : null;
        return (
          <Paper key={s.key} withBorder p="sm" radius="md" data-testid={`funnel-${s.key}`}>
            <Text size="xs" c="dimmed">
              {s.label}
            </Text>
            <Group gap={6} align="baseline">
              <Text fw={700} size="lg" data-testid={`funnel-${s.key}-value`}>
                {value}
              </Text>
              {prev !== null && prev > 0 && (
                <Text size="xs" c="dimmed">
                  {Math.round((100 * value) / prev)}%
                </Text>
              )}
            </Group>
          </Paper>
        );
      })}
    </SimpleGrid>
  );
}
